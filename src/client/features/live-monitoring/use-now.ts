import { useEffect, useState } from 'react'

/** The current time, ticking every `everyMs`: relative times and presence dots age by it. */
export function useNow(everyMs = 15_000): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), everyMs)
    return () => clearInterval(id)
  }, [everyMs])
  return now
}
