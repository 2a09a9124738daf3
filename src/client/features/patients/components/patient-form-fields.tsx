import type { ReactNode } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect, Textarea } from '@/client/components/ui/input'
import { genderLabels, genders } from '@/shared/schemas/patients'
import type { PatientFormValues } from '../patient-form'
import { BirthFields } from './birth-fields'

type Name = keyof PatientFormValues

interface Props {
  form: UseFormReturn<PatientFormValues>
  idPrefix: string
  /** Shown under the phone field, across the row (the duplicate-phone warning). */
  phoneNotice?: ReactNode
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 md:p-5">
      <legend className="px-1 text-base font-semibold text-slate-900">{title}</legend>
      {children}
    </fieldset>
  )
}

/** The sectioned patient form: basic, address, emergency contact, medical, insurance. */
export function PatientFormFields({ form, idPrefix, phoneNotice }: Props) {
  const { register } = form
  const errors = form.formState.errors
  const id = (name: Name) => `${idPrefix}-${name}`
  const a11y = (name: Name) => ({
    id: id(name),
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `${id(name)}-error` : undefined,
  })
  const err = (name: Name) => errors[name]?.message

  return (
    <div className="space-y-5">
      <Section title="Basic Information">
        <div className="grid gap-4 md:grid-cols-2">
          <Field id={id('name')} label="Full Name" required error={err('name')}>
            <Input
              {...a11y('name')}
              {...register('name')}
              autoComplete="off"
              placeholder="e.g. Priya Sharma"
            />
          </Field>
          <Field
            id={id('phone')}
            label="Phone"
            required
            error={err('phone')}
            hint="Indian numbers as typed: 98765 43210"
          >
            <Input
              {...a11y('phone')}
              {...register('phone')}
              type="tel"
              inputMode="tel"
              autoComplete="off"
              placeholder="+91 98765 43210"
            />
          </Field>
          {phoneNotice ? <div className="md:col-span-2">{phoneNotice}</div> : null}
          <Field id={id('email')} label="Email" error={err('email')}>
            <Input
              {...a11y('email')}
              {...register('email')}
              type="email"
              placeholder="name@example.com"
            />
          </Field>
          <BirthFields form={form} idPrefix={idPrefix} />
          <Field id={id('gender')} label="Gender" error={err('gender')}>
            <NativeSelect {...a11y('gender')} {...register('gender')}>
              <option value="">Select gender</option>
              {genders.map((g) => (
                <option key={g} value={g}>
                  {genderLabels[g]}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
      </Section>
      <Section title="Address Information">
        <Field id={id('address')} label="Address" error={err('address')}>
          <Textarea
            {...a11y('address')}
            {...register('address')}
            placeholder="House, street, area, city, PIN code"
          />
        </Field>
      </Section>
      <Section title="Emergency Contact">
        <Field
          id={id('emergencyContact')}
          label="Emergency Contact"
          error={err('emergencyContact')}
        >
          <Input
            {...a11y('emergencyContact')}
            {...register('emergencyContact')}
            placeholder="Name, relation and phone"
          />
        </Field>
      </Section>
      <Section title="Medical Information">
        <Field id={id('medicalHistory')} label="Medical History" error={err('medicalHistory')}>
          <Textarea
            {...a11y('medicalHistory')}
            {...register('medicalHistory')}
            placeholder="Conditions, surgeries, current medication"
          />
        </Field>
        <Field id={id('allergies')} label="Allergies" error={err('allergies')}>
          <Textarea
            {...a11y('allergies')}
            {...register('allergies')}
            placeholder="e.g. Penicillin, peanuts"
          />
        </Field>
      </Section>
      <Section title="Insurance Information">
        <div className="grid gap-4 md:grid-cols-2">
          <Field
            id={id('insuranceProvider')}
            label="Insurance Provider"
            error={err('insuranceProvider')}
          >
            <Input
              {...a11y('insuranceProvider')}
              {...register('insuranceProvider')}
              placeholder="e.g. Star Health"
            />
          </Field>
          <Field id={id('insuranceNumber')} label="Insurance Number" error={err('insuranceNumber')}>
            <Input
              {...a11y('insuranceNumber')}
              {...register('insuranceNumber')}
              placeholder="Policy number"
            />
          </Field>
          <Field
            id={id('abhaNumber')}
            label="ABHA Number"
            error={err('abhaNumber')}
            hint="Optional, 14 digits"
          >
            <Input
              {...a11y('abhaNumber')}
              {...register('abhaNumber')}
              inputMode="numeric"
              placeholder="12-3456-7890-1234"
            />
          </Field>
        </div>
      </Section>
    </div>
  )
}
