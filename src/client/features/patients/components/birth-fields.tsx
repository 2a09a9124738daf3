import { Controller, type UseFormReturn, useWatch } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { DateField } from '@/client/components/ui/date-field'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import type { BirthInput, PatientFormValues } from '../patient-form'

/**
 * Date of birth typed as dd/mm/yyyy, or, when the patient does not know it, an age in years
 * (the server then stores an estimated date of birth).
 */
export function BirthFields({
  form,
  idPrefix,
}: {
  form: UseFormReturn<PatientFormValues>
  idPrefix: string
}) {
  const mode = useWatch({ control: form.control, name: 'birthInput' })
  const errors = form.formState.errors
  const dateId = `${idPrefix}-dateOfBirth`
  const ageId = `${idPrefix}-ageYears`

  function switchTo(next: BirthInput) {
    form.setValue('birthInput', next, { shouldDirty: true })
    form.clearErrors(['dateOfBirth', 'ageYears'])
    // Focus the field that replaced the one the user was in.
    requestAnimationFrame(() => form.setFocus(next === 'age' ? 'ageYears' : 'dateOfBirth'))
  }

  return (
    <div className="min-w-0 space-y-1">
      {mode === 'age' ? (
        <Field
          id={ageId}
          label="Age (years)"
          error={errors.ageYears?.message}
          hint="Saved as an estimated date of birth"
        >
          <Input
            {...form.register('ageYears')}
            id={ageId}
            aria-invalid={Boolean(errors.ageYears)}
            aria-describedby={errors.ageYears ? `${ageId}-error` : undefined}
            inputMode="numeric"
            autoComplete="off"
            maxLength={3}
            placeholder="e.g. 34"
          />
        </Field>
      ) : (
        <Field
          id={dateId}
          label="Date of Birth"
          error={errors.dateOfBirth?.message}
          hint="dd/mm/yyyy, e.g. 15/04/1990"
        >
          <Controller
            control={form.control}
            name="dateOfBirth"
            render={({ field }) => (
              <DateField
                id={dateId}
                name={field.name}
                ref={field.ref}
                value={field.value}
                onChange={(value) => {
                  field.onChange(value)
                  if (errors.dateOfBirth) void form.trigger('dateOfBirth')
                }}
                onBlur={() => {
                  field.onBlur()
                  if (field.value.trim() !== '') void form.trigger('dateOfBirth')
                }}
                aria-invalid={Boolean(errors.dateOfBirth)}
                aria-describedby={errors.dateOfBirth ? `${dateId}-error` : undefined}
              />
            )}
          />
        </Field>
      )}
      <Button
        type="button"
        variant="link"
        size="sm"
        className="h-auto px-0 py-1 whitespace-normal"
        onClick={() => switchTo(mode === 'age' ? 'date' : 'age')}
      >
        {mode === 'age' ? 'Enter date of birth instead' : "Don't know the date of birth? Enter age"}
      </Button>
    </div>
  )
}
