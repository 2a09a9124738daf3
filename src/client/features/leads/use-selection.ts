import { useMemo, useState } from 'react'
import type { Lead } from '@/shared/schemas/leads'
import type { Selection } from './components/leads-table'

/**
 * Bulk selection: off by default; when on, leads can be ticked one by one or all listed at
 * once. Only listed leads count (a filter change clears the rest).
 */
export function useSelection(leads: Lead[]): Selection & {
  selecting: boolean
  setSelecting: (on: boolean) => void
  ids: string[]
  clear: () => void
} {
  const [selecting, setSelectingState] = useState(false)
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set())
  const ids = useMemo(() => leads.filter((l) => chosen.has(l.id)).map((l) => l.id), [leads, chosen])

  return {
    selecting,
    selected: selecting ? chosen : undefined,
    ids: selecting ? ids : [],
    setSelecting: (on) => {
      setSelectingState(on)
      if (!on) setChosen(new Set())
    },
    clear: () => setChosen(new Set()),
    onToggle: (id) =>
      setChosen((prev) => {
        const next = new Set(prev)
        if (next.has(id)) next.delete(id)
        else next.add(id)
        return next
      }),
    onToggleAll: () =>
      setChosen((prev) =>
        leads.length > 0 && leads.every((l) => prev.has(l.id))
          ? new Set()
          : new Set(leads.map((l) => l.id)),
      ),
  }
}
