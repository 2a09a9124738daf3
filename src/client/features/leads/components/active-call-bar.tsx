import { PhoneOff } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { setActiveCall, useActiveCall } from '../active-call'
import { endLeadCall } from '../api/lead-calls'

/** While a call started from a lead is on: who it is with, and 'End call' (issue 29). */
export function ActiveCallBar() {
  const call = useActiveCall()
  const [ending, setEnding] = useState(false)
  if (!call) return null

  async function end() {
    if (!call) return
    setEnding(true)
    try {
      await endLeadCall(call.leadId, call.callId)
      setActiveCall(null)
    } catch (error) {
      // Already ended (409) or no longer there (404): nothing left to end here.
      if (error instanceof ApiError && (error.status === 409 || error.status === 404)) {
        setActiveCall(null)
      } else {
        toast.error('Error', 'The end of the call was not recorded. Please try again.')
      }
    } finally {
      setEnding(false)
    }
  }

  return (
    <div
      role="region"
      aria-label="Call in progress"
      className="sticky top-2 z-20 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-brand-600/40 bg-brand-50 p-3"
    >
      <p className="min-w-0 text-sm font-semibold break-words" role="status">
        On a call with {call.leadName}
      </p>
      <Button variant="destructive" onClick={() => void end()} disabled={ending}>
        <PhoneOff aria-hidden="true" />
        End call
      </Button>
    </div>
  )
}
