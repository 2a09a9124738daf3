import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { Toaster } from 'sonner'
import { createQueryClient } from './lib/query-client'
import { Root } from './router'

/** Spec section 9: one toast at a time, 5000 ms, swipe right to dismiss, F8 focuses the area. */
export function App() {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <Root />
      <Toaster
        visibleToasts={1}
        duration={5000}
        hotkey={['F8']}
        swipeDirections={['right']}
        position="bottom-right"
        richColors
        closeButton
        style={{ maxWidth: 420 }}
      />
    </QueryClientProvider>
  )
}
