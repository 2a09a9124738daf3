import { type Resolver, useForm } from 'react-hook-form'
import { ApiError } from '@/client/lib/api-client'
import { emptyPatientForm, type PatientFormValues, validatePatientForm } from './patient-form'

const resolver: Resolver<PatientFormValues> = (values) => {
  const { errors } = validatePatientForm(values)
  if (Object.keys(errors).length === 0) return { values, errors: {} }
  return {
    values: {},
    errors: Object.fromEntries(
      Object.entries(errors).map(([k, message]) => [k, { type: 'validation', message }]),
    ),
  }
}

/** react-hook-form set up with the shared patient schema, plus a helper to show server field errors. */
export function usePatientForm(defaultValues: PatientFormValues = emptyPatientForm) {
  const form = useForm<PatientFormValues>({
    defaultValues,
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  })
  function showServerErrors(error: unknown): void {
    if (!(error instanceof ApiError)) return
    for (const [path, message] of Object.entries(error.fieldErrors)) {
      if (path in emptyPatientForm)
        form.setError(path as keyof PatientFormValues, { type: 'server', message })
    }
  }
  return { form, showServerErrors }
}
