import { z } from 'zod'
import { type GstRate, gstRates } from '@/shared/billing'
import { appointmentDurations } from '@/shared/scheduling'
import {
  type CatalogueService,
  type CreateServiceInput,
  createServiceInput,
} from '@/shared/schemas/billing'
import { paiseToRupeesText, RUPEES_MESSAGE, rupeesTextToPaise } from '../money-input'

/** A catalogue service as typed: the price in rupees, selects as text. */
export interface ServiceFormValues {
  name: string
  code: string
  defaultPrice: string
  gstRate: string
  durationMinutes: string
  bookable: boolean
  active: boolean
}

export const newServiceValues: ServiceFormValues = {
  name: '',
  code: '9993',
  defaultPrice: '',
  gstRate: '0',
  durationMinutes: '30',
  bookable: true,
  active: true,
}

export function serviceValuesOf(s: CatalogueService): ServiceFormValues {
  return {
    name: s.name,
    code: s.code ?? '',
    defaultPrice: paiseToRupeesText(s.defaultPrice),
    gstRate: String(s.gstRate),
    durationMinutes: String(s.durationMinutes),
    bookable: s.bookable,
    active: s.active,
  }
}

/** The typed form to the shared createServiceInput (also a full PATCH body when editing). */
export const serviceFormSchema = z
  .custom<ServiceFormValues>()
  .transform((v, ctx): CreateServiceInput => {
    const price = rupeesTextToPaise(v.defaultPrice)
    if (price === null) {
      ctx.addIssue({ code: 'custom', path: ['defaultPrice'], message: RUPEES_MESSAGE })
    }
    return {
      name: v.name,
      code: v.code,
      defaultPrice: price ?? 0,
      gstRate: Number(v.gstRate) as GstRate,
      durationMinutes: Number(v.durationMinutes) as CreateServiceInput['durationMinutes'],
      bookable: v.bookable,
      active: v.active,
    }
  })
  .pipe(createServiceInput)

export const serviceGstRates = gstRates
export const serviceDurations = appointmentDurations
