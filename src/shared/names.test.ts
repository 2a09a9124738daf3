import { describe, expect, it } from 'vitest'
import { isHonorific, splitName } from './names'

describe('splitName', () => {
  it('splits a full name into first and last', () => {
    expect(splitName('Meera Joshi')).toEqual({
      honorific: '',
      firstName: 'Meera',
      lastName: 'Joshi',
    })
    expect(splitName('Mary Ann Thomas')).toEqual({
      honorific: '',
      firstName: 'Mary',
      lastName: 'Ann Thomas',
    })
    expect(splitName('Madonna')).toEqual({ honorific: '', firstName: 'Madonna', lastName: '' })
    expect(splitName('   ')).toEqual({ honorific: '', firstName: '', lastName: '' })
  })

  it.each([
    ['Dr. Meera Kulkarni', 'Dr.', 'Meera', 'Kulkarni'],
    ['  Dr.  Rajesh   Iyer ', 'Dr.', 'Rajesh', 'Iyer'],
    ['Dr Rajesh Iyer', 'Dr', 'Rajesh', 'Iyer'],
    ['DR. RAJESH IYER', 'DR.', 'RAJESH', 'IYER'],
    ['Dr.Meera Kulkarni', 'Dr.', 'Meera', 'Kulkarni'],
    ['Mr. Anil Shah', 'Mr.', 'Anil', 'Shah'],
    ['Mrs. Asha Rao', 'Mrs.', 'Asha', 'Rao'],
    ['Ms. Neha Gupta', 'Ms.', 'Neha', 'Gupta'],
    ['Miss Diya Nair', 'Miss', 'Diya', 'Nair'],
    ['Shri Ramesh Patil', 'Shri', 'Ramesh', 'Patil'],
    ['Smt. Lakshmi Iyer', 'Smt.', 'Lakshmi', 'Iyer'],
    ['Smt Lakshmi', 'Smt', 'Lakshmi', ''],
    ['Prof. Anil Rao', 'Prof.', 'Anil', 'Rao'],
    ['Kum. Priya Das', 'Kum.', 'Priya', 'Das'],
    ['Prof. Dr. Anil Rao', 'Prof. Dr.', 'Anil', 'Rao'],
    ['Dr. (Mrs.) Sunita Rao', 'Dr. (Mrs.)', 'Sunita', 'Rao'],
  ])('treats the title of %j as no first name', (name, honorific, firstName, lastName) => {
    expect(splitName(name)).toEqual({ honorific, firstName, lastName })
  })

  it('keeps a name that is only a title, and names that start like one', () => {
    expect(splitName('Miss')).toEqual({ honorific: '', firstName: 'Miss', lastName: '' })
    expect(splitName('Dr.')).toEqual({ honorific: '', firstName: 'Dr.', lastName: '' })
    expect(splitName('Drishti Mehta')).toEqual({
      honorific: '',
      firstName: 'Drishti',
      lastName: 'Mehta',
    })
    expect(splitName('Smita Shah').firstName).toBe('Smita')
    expect(splitName('Mrinal Sen').firstName).toBe('Mrinal')
    expect(splitName('A.K. Hangal')).toEqual({
      honorific: '',
      firstName: 'A.K.',
      lastName: 'Hangal',
    })
  })

  it('knows titles whatever their case and punctuation', () => {
    for (const word of ['Dr.', 'dr', 'DR', 'Mrs.', 'Smt.', 'smt', 'Kum.', '(Mrs.)', 'Shri'])
      expect(isHonorific(word), word).toBe(true)
    for (const word of ['Meera', 'Drishti', 'D.', 'Mr.Meera', ''])
      expect(isHonorific(word), word).toBe(false)
  })
})
