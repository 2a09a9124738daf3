import { type ComponentProps, useState } from 'react'
import {
  autoFormatDateText,
  DATE_PLACEHOLDER,
  dateTextToValue,
  isoToDisplay,
  tidyDateText,
} from './date-field-text'
import { Input } from './input'

export interface DateFieldProps extends Omit<
  ComponentProps<'input'>,
  'value' | 'defaultValue' | 'onChange' | 'type'
> {
  /** ISO yyyy-mm-dd, '' when empty, or the typed text while it is not a real date yet. */
  value: string
  onChange: (value: string) => void
}

/**
 * A date typed as dd/mm/yyyy whatever the browser's locale (a native date input follows the
 * locale, which shows mm/dd/yyyy on many Indian laptops). Slashes are put in while typing;
 * the value handed to the form is ISO yyyy-mm-dd once the text is a real calendar date, and
 * the text itself until then, so the form can say what is wrong (dateValueError).
 */
export function DateField({ value, onChange, onBlur, placeholder, ...props }: DateFieldProps) {
  const [text, setText] = useState(() => isoToDisplay(value))
  // The value this field last reported; any other value comes from outside (a form reset).
  const [reported, setReported] = useState(value)
  if (value !== reported) {
    setReported(value)
    setText(isoToDisplay(value))
  }

  function update(next: string) {
    const nextValue = dateTextToValue(next)
    setText(next)
    setReported(nextValue)
    if (nextValue !== value) onChange(nextValue)
  }

  return (
    <Input
      {...props}
      type="text"
      inputMode="numeric"
      autoComplete={props.autoComplete ?? 'off'}
      placeholder={placeholder ?? DATE_PLACEHOLDER}
      maxLength={10}
      value={text}
      onChange={(e) => {
        const input = e.currentTarget
        const atEnd = input.selectionStart === input.value.length
        const growing = input.value.length > text.length
        update(atEnd && growing ? autoFormatDateText(input.value) : input.value)
      }}
      onBlur={(e) => {
        const tidy = tidyDateText(text)
        if (tidy !== text) update(tidy)
        onBlur?.(e)
      }}
    />
  )
}
