import { Toaster } from 'sonner'

/** Spec section 9: one toast at a time, 5000 ms, swipe right to dismiss, F8 focuses the area. */
export function AppToaster() {
  return (
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
  )
}
