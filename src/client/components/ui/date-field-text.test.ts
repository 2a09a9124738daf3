import { describe, expect, it } from 'vitest'
import {
  autoFormatDateText,
  DATE_FORMAT_MESSAGE,
  dateTextToValue,
  dateValueError,
  displayToIso,
  isoToDisplay,
  tidyDateText,
} from './date-field-text'

describe('dd/mm/yyyy dates', () => {
  it('converts to and from ISO', () => {
    expect(isoToDisplay('1990-04-15')).toBe('15/04/1990')
    expect(isoToDisplay('')).toBe('')
    expect(isoToDisplay('15/04')).toBe('15/04')
    expect(displayToIso('15/04/1990')).toBe('1990-04-15')
    expect(displayToIso('1/4/1990')).toBe('1990-04-01')
    expect(displayToIso('15-04-1990')).toBe('1990-04-15')
    expect(displayToIso('15.04.1990')).toBe('1990-04-15')
    expect(displayToIso(' 29/02/2024 ')).toBe('2024-02-29')
  })

  it('refuses dates that are not in the calendar', () => {
    expect(displayToIso('29/02/2023')).toBeNull()
    expect(displayToIso('31/04/1990')).toBeNull()
    expect(displayToIso('00/01/1990')).toBeNull()
    expect(displayToIso('12/13/1990')).toBeNull()
    expect(displayToIso('04/15/1990')).toBeNull() // mm/dd is not read
    expect(displayToIso('15/04/90')).toBeNull()
  })

  it('keeps what the form holds: ISO for real dates, the text otherwise', () => {
    expect(dateTextToValue('')).toBe('')
    expect(dateTextToValue('  ')).toBe('')
    expect(dateTextToValue('15/04/1990')).toBe('1990-04-15')
    expect(dateTextToValue('15/04')).toBe('15/04')
    expect(dateTextToValue('31/02/1990')).toBe('31/02/1990')
  })

  it('explains what is wrong', () => {
    expect(dateValueError('')).toBeNull()
    expect(dateValueError('1990-04-15')).toBeNull()
    expect(dateValueError('15/04')).toBe(DATE_FORMAT_MESSAGE)
    expect(dateValueError('abc')).toBe(DATE_FORMAT_MESSAGE)
    expect(dateValueError('31/2/1990')).toBe('No such date: 31/02/1990. Check the day and month.')
    expect(dateValueError('1990-02-31')).toBe('No such date: 31/02/1990. Check the day and month.')
  })

  it('puts slashes in while digits are typed', () => {
    expect(autoFormatDateText('1')).toBe('1')
    expect(autoFormatDateText('15')).toBe('15/')
    expect(autoFormatDateText('150')).toBe('15/0')
    expect(autoFormatDateText('1504')).toBe('15/04/')
    expect(autoFormatDateText('15041990')).toBe('15/04/1990')
    expect(autoFormatDateText('150419901')).toBe('15/04/1990')
    expect(autoFormatDateText('15/0419')).toBe('15/04/19')
    expect(autoFormatDateText('1/')).toBe('1/')
    expect(autoFormatDateText('1//')).toBe('1/')
    expect(autoFormatDateText('1/4/1990')).toBe('1/4/1990')
    expect(autoFormatDateText('15-04-1990')).toBe('15/04/1990')
    expect(autoFormatDateText('15/04/1990')).toBe('15/04/1990')
    expect(autoFormatDateText('ab')).toBe('ab')
  })

  it('tidies on leaving the field', () => {
    expect(tidyDateText('1/4/1990')).toBe('01/04/1990')
    expect(tidyDateText(' 15/04 ')).toBe('15/04')
  })
})
