import { useCallback, useState, useSyncExternalStore } from 'react'

export type PatientsView = 'cards' | 'table'

const STORAGE_KEY = 'arogya.patients.view'
/** The table needs a laptop's width; phones always get cards. */
const WIDE_ENOUGH = '(min-width: 640px)'

function readStored(): PatientsView {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'table' ? 'table' : 'cards'
  } catch {
    return 'cards' // storage blocked
  }
}

function subscribeToWidth(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE_ENOUGH)
  query.addEventListener('change', onChange)
  return () => query.removeEventListener('change', onChange)
}

const isWide = () => window.matchMedia(WIDE_ENOUGH).matches

/**
 * Cards or a compact table, remembered in this browser. `canChoose` is false on narrow
 * screens, where cards are shown whatever was chosen.
 */
export function usePatientsView() {
  const [chosen, setChosen] = useState<PatientsView>(readStored)
  const canChoose = useSyncExternalStore(subscribeToWidth, isWide, () => true)
  const choose = useCallback((next: PatientsView) => {
    setChosen(next)
    try {
      localStorage.setItem(STORAGE_KEY, next)
    } catch {
      // storage blocked: the choice lasts until reload
    }
  }, [])
  return { view: canChoose ? chosen : 'cards', canChoose, choose } as const
}
