import { describe, expect, it } from 'vitest'
import { displayName, fullName, initialsOf } from './display-name'

const user = (
  firstName: string | null,
  lastName: string | null,
  username: string | null = null,
) => ({
  firstName,
  lastName,
  username,
  email: 'someone@clinic.example',
})

describe('displayName', () => {
  it('uses firstName, else username, else User (spec)', () => {
    expect(displayName(user('Rajesh', 'Iyer', 'rajesh'))).toBe('Rajesh')
    expect(displayName(user('Mary Ann', 'Thomas'))).toBe('Mary Ann')
    expect(displayName(user(null, 'Iyer', 'rajesh'))).toBe('rajesh')
    expect(displayName(user(' ', null, null))).toBe('User')
    expect(displayName(user(null, null, null))).toBe('User')
  })

  it('never greets a title alone', () => {
    expect(displayName(user('Dr.', 'Kavita Joshi'))).toBe('Kavita')
    expect(displayName(user('Dr', 'Kavita Joshi'))).toBe('Kavita')
    expect(displayName(user('Dr. Rajesh', 'Iyer'))).toBe('Rajesh')
    expect(displayName(user('Smt.', 'Lakshmi'))).toBe('Lakshmi')
    expect(displayName(user('Prof.', null, 'prof.sharma'))).toBe('prof.sharma')
    expect(displayName(user('DR.', null, null))).toBe('User')
  })
})

describe('initialsOf and fullName', () => {
  it('takes the first and last real words, and keeps titles in the full name', () => {
    expect(initialsOf(user('Rajesh', 'Iyer'))).toBe('RI')
    expect(initialsOf(user('Dr.', 'Kavita Joshi'))).toBe('KJ')
    expect(initialsOf(user('Meera', null))).toBe('M')
    expect(initialsOf(user(null, null, null))).toBe('S')
    expect(fullName(user('Dr.', 'Kavita Joshi'))).toBe('Dr. Kavita Joshi')
    expect(fullName(user(null, null, 'kavita'))).toBe('kavita')
  })
})
