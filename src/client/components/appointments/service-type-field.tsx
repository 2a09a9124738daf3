import { type KeyboardEvent, useId, useState } from 'react'
import { Input } from '@/client/components/ui/input'
import { cn } from '@/client/lib/cn'

/**
 * The New Appointment dialog's Service Type (issue 40, item 12): free text with the catalogue's
 * services as suggestions, a WAI-ARIA combobox with its own listbox (a native datalist's popup
 * cannot be told apart from the field, so Escape closed the whole dialog and lost the input).
 * Escape with the list open closes only the list: the dialog sees an expanded combobox and
 * stays (ui/dialog.tsx); a second Escape closes the dialog as usual.
 */
export function ServiceTypeField({
  id,
  value,
  onChange,
  onBlur,
  suggestions,
  invalid,
  describedBy,
}: {
  id: string
  value: string
  onChange: (value: string) => void
  onBlur: () => void
  suggestions: readonly string[]
  invalid?: boolean
  describedBy?: string | undefined
}) {
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const listId = useId()
  const wanted = value.trim().toLowerCase()
  const options = suggestions.filter(
    (s) => wanted === '' || (s.toLowerCase().includes(wanted) && s.toLowerCase() !== wanted),
  )
  const showList = open && options.length > 0
  const optionId = (i: number) => `${listId}-option-${i}`

  function pick(index: number) {
    const name = options[index]
    if (name === undefined) return
    onChange(name)
    setOpen(false)
    setActive(-1)
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      setOpen(true)
      setActive((i) => Math.min(i + 1, options.length - 1))
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      setActive((i) => Math.max(i - 1, 0))
    } else if (e.key === 'Enter' && showList && active >= 0) {
      e.preventDefault()
      pick(active)
    } else if (e.key === 'Escape' && showList) {
      e.preventDefault()
      setOpen(false)
      setActive(-1)
    }
  }

  return (
    <div className="relative min-w-0">
      <Input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        maxLength={120}
        value={value}
        onChange={(e) => {
          onChange(e.target.value)
          setActive(-1)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false)
          onBlur()
        }}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Services"
        data-testid="service-suggestions"
        className={cn(
          'absolute z-10 mt-1 max-h-60 w-full overflow-y-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg',
          !showList && 'hidden',
        )}
      >
        {options.map((name, i) => (
          <li
            key={name}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // mousedown, not click: the input's blur would close the list first.
            onMouseDown={(e) => {
              e.preventDefault()
              pick(i)
            }}
            onMouseEnter={() => setActive(i)}
            className={cn(
              'cursor-pointer px-3 py-2 text-sm',
              i === active ? 'bg-brand-50 text-brand-800' : 'text-slate-800',
            )}
          >
            {name}
          </li>
        ))}
      </ul>
    </div>
  )
}
