/**
 * Addresses of demo patients: real localities of each city with their PIN codes and a few of
 * their roads; the house, flat and building are made up.
 */

type Rng = () => number
export type Region = 'pune' | 'bengaluru'

export interface Locality {
  name: string
  pin: string
  roads: readonly string[]
}

const pune: readonly Locality[] = [
  { name: 'Kothrud', pin: '411038', roads: ['Paud Road', 'Karve Road', 'DP Road'] },
  { name: 'Koregaon Park', pin: '411001', roads: ['North Main Road', 'South Main Road'] },
  { name: 'Baner', pin: '411045', roads: ['Baner Road', 'Pancard Club Road'] },
  { name: 'Erandwane', pin: '411004', roads: ['Prabhat Road', 'Law College Road'] },
  { name: 'Deccan Gymkhana', pin: '411004', roads: ['Fergusson College Road', 'JM Road'] },
  { name: 'Hadapsar', pin: '411028', roads: ['Solapur Road', 'Magarpatta Road'] },
  { name: 'Aundh', pin: '411007', roads: ['ITI Road', 'DP Road'] },
  { name: 'Wakad', pin: '411057', roads: ['Dange Chowk Road', 'Bhumkar Chowk Road'] },
  { name: 'Viman Nagar', pin: '411014', roads: ['Datta Mandir Road', 'Symbiosis Road'] },
  { name: 'Kharadi', pin: '411014', roads: ['Kharadi Bypass Road', 'Eon IT Park Road'] },
  { name: 'Kalyani Nagar', pin: '411006', roads: ['Central Avenue', 'Marigold Road'] },
  { name: 'Pimple Saudagar', pin: '411027', roads: ['Kunal Icon Road', 'Shivar Chowk Road'] },
  { name: 'Bibwewadi', pin: '411037', roads: ['Bibwewadi-Kondhwa Road', 'Market Yard Road'] },
  { name: 'Katraj', pin: '411046', roads: ['Katraj-Kondhwa Road', 'Satara Road'] },
  { name: 'Warje', pin: '411058', roads: ['Warje Malwadi Road', 'Mumbai-Bengaluru Highway'] },
  { name: 'Karve Nagar', pin: '411052', roads: ['Hingne Road', 'Karve Nagar Road'] },
  { name: 'Pashan', pin: '411021', roads: ['Pashan-Sus Road', 'NCL Road'] },
  { name: 'Kondhwa', pin: '411048', roads: ['NIBM Road', 'Kondhwa Main Road'] },
  { name: 'Wanowrie', pin: '411040', roads: ['Fatima Nagar Road', 'Jagtap Chowk Road'] },
  { name: 'Sadashiv Peth', pin: '411030', roads: ['Tilak Road', 'Bajirao Road'] },
  { name: 'Shaniwar Peth', pin: '411030', roads: ['Appa Balwant Chowk', 'Kelkar Road'] },
]

const bengaluru: readonly Locality[] = [
  { name: 'Indiranagar', pin: '560038', roads: ['100 Feet Road', '12th Main', 'CMH Road'] },
  { name: 'Koramangala', pin: '560034', roads: ['80 Feet Road', '1st Cross', '6th Main'] },
  { name: 'HSR Layout', pin: '560102', roads: ['27th Main', '14th Main', '19th Main'] },
  { name: 'Jayanagar', pin: '560041', roads: ['11th Main', '30th Cross', '9th Main'] },
  { name: 'JP Nagar', pin: '560078', roads: ['24th Main', '15th Cross', 'Ring Road'] },
  { name: 'Malleshwaram', pin: '560003', roads: ['Sampige Road', 'Margosa Road', '8th Cross'] },
  { name: 'Basavanagudi', pin: '560004', roads: ['Bull Temple Road', 'DVG Road'] },
  { name: 'Rajajinagar', pin: '560010', roads: ['Dr Rajkumar Road', '2nd Block 5th Main'] },
  { name: 'Whitefield', pin: '560066', roads: ['ITPL Main Road', 'Varthur Road'] },
  { name: 'Marathahalli', pin: '560037', roads: ['Outer Ring Road', 'Kundalahalli Road'] },
  { name: 'Electronic City', pin: '560100', roads: ['Hosur Road', 'Neeladri Road'] },
  { name: 'Hebbal', pin: '560024', roads: ['Bellary Road', 'Hebbal Ring Road'] },
  { name: 'Banashankari', pin: '560070', roads: ['Kanakapura Road', '50 Feet Road'] },
  { name: 'Bellandur', pin: '560103', roads: ['Sarjapur Road', 'Outer Ring Road'] },
  { name: 'BTM Layout', pin: '560076', roads: ['16th Main', '29th Main', '7th Cross'] },
  { name: 'RT Nagar', pin: '560032', roads: ['CBI Road', '80 Feet Road'] },
  { name: 'Vijayanagar', pin: '560040', roads: ['Chord Road', 'Service Road'] },
  { name: 'Frazer Town', pin: '560005', roads: ['Mosque Road', 'Coles Road'] },
  { name: 'Domlur', pin: '560071', roads: ['Old Airport Road', 'Amarjyothi Layout Road'] },
  { name: 'Sadashivanagar', pin: '560080', roads: ['Sankey Road', 'Palace Road'] },
  { name: 'Yelahanka', pin: '560064', roads: ['Doddaballapur Road', 'Bazaar Street'] },
]

export const localities: Record<Region, readonly Locality[]> = { pune, bengaluru }
export const cityNames: Record<Region, string> = { pune: 'Pune', bengaluru: 'Bengaluru' }

const buildings: Record<Region, readonly string[]> = {
  pune: [
    'Shivneri Apartments',
    'Sai Residency',
    'Gulmohar Park',
    'Sahyadri Co-op Housing Society',
    'Mangalmurti Apartments',
    'Swapnashilp Society',
    'Anand Vihar',
    'Vrindavan Society',
    'Green Valley Residency',
    'Sukhsagar Apartments',
    'Laxmi Heights',
    'Panchavati Towers',
  ],
  bengaluru: [
    'Sai Krupa Apartments',
    'Lakeview Residency',
    'Green Meadows',
    'Sri Venkateshwara Enclave',
    'Maple Heights',
    'Gulmohar Apartments',
    'Shanti Nilaya',
    'Sunrise Towers',
    'Silver Oak Residency',
    'Kaveri Apartments',
    'Nandi Greens',
    'Brindavan Enclave',
  ],
}

function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)] as T
}

const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1))

function ordinal(n: number): string {
  const tens = n % 100
  if (tens >= 11 && tens <= 13) return `${n}th`
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`
}

/** A flat in a building: 'Flat 1204, B Wing, Sai Residency' (floor and unit in the number). */
function flat(rng: Rng, region: Region): string {
  const number = `${int(rng, 1, 14)}${String(int(rng, 1, 8)).padStart(2, '0')}`
  const wing = rng() < 0.4 ? `${pick(rng, ['A', 'B', 'C', 'D'])} Wing, ` : ''
  return `Flat ${number}, ${wing}${pick(rng, buildings[region])}`
}

/**
 * One address, e.g. 'Flat 302, B Wing, Sai Residency, Paud Road, Kothrud, Pune 411038' or
 * '#45, 3rd Cross, 5th Main, Indiranagar, Bengaluru 560038'.
 */
export function demoAddress(rng: Rng, region: Region): string {
  const place = pick(rng, localities[region])
  const tail = `${place.name}, ${cityNames[region]} ${place.pin}`
  const style = rng()
  if (style < 0.5) return `${flat(rng, region)}, ${pick(rng, place.roads)}, ${tail}`
  if (region === 'bengaluru') {
    return style < 0.8
      ? `#${int(rng, 1, 420)}, ${ordinal(int(rng, 1, 18))} Cross, ${ordinal(int(rng, 1, 12))} Main, ${tail}`
      : `No. ${int(rng, 1, 220)}, ${pick(rng, place.roads)}, ${tail}`
  }
  if (place.name.endsWith('Peth')) return `House No. ${int(rng, 100, 1450)}, ${tail}`
  return style < 0.8
    ? `Plot ${int(rng, 1, 120)}, Lane ${int(rng, 1, 14)}, ${pick(rng, place.roads)}, ${tail}`
    : `Bungalow ${int(rng, 1, 60)}, ${pick(rng, place.roads)}, ${tail}`
}
