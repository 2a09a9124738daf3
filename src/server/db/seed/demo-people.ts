/**
 * Names of the demo patients, by community, so that a first name goes with its surname
 * (no 'Gurpreet Shaikh'), and the mix of each demo city. Word lists are written as one
 * string per list to keep the file short.
 */

export interface Community {
  male: readonly string[]
  female: readonly string[]
  surnames: readonly string[]
}

const words = (s: string): readonly string[] => s.split(' ')

export const communities = {
  marathi: {
    male: words(
      'Omkar Tejas Ganesh Mahesh Sanjay Anil Rohan Aditya Siddharth Prasad Swapnil Nikhil',
    ),
    female: words('Rutuja Madhuri Sneha Pooja Asha Sunita Gauri Ashwini Vaishali Aarti Sayali'),
    surnames: words('Patil Deshmukh Kulkarni Joshi Pawar Jadhav Gokhale Bhosale Kale Shinde Apte'),
  },
  hindi: {
    male: words('Aarav Vihaan Arjun Rahul Vikram Deepak Manoj Amit Ankit Saurabh'),
    female: words('Ananya Priya Neha Anjali Divya Geeta Rekha Kavita Shreya Nisha'),
    surnames: words('Sharma Verma Gupta Agarwal Mishra Srivastava Tiwari Chauhan'),
  },
  gujarati: {
    male: words('Harsh Jignesh Ketan Parth Hitesh'),
    female: words('Hetal Krupa Nidhi Bhavna Komal'),
    surnames: words('Shah Mehta Desai Patel Trivedi'),
  },
  kannada: {
    male: words('Karthik Naveen Harish Venkatesh Manjunath Prakash Girish Suresh Darshan'),
    female: words('Sowmya Bhavana Kavya Lakshmi Shwetha Deepa Sahana Ramya Pallavi'),
    surnames: words('Gowda Rao Shetty Kamath Bhat Hegde Nayak Acharya'),
  },
  tamilTelugu: {
    male: words('Srinivas Ramesh Arvind Pranav Vignesh Sridhar Bharath'),
    female: words('Padmavathi Meera Aishwarya Janani Keerthana Revathi'),
    surnames: words('Iyer Reddy Naidu Subramanian Krishnan Iyengar Raju'),
  },
  malayali: {
    male: words('Arun Anoop Vishnu Rajeev Sreejith'),
    female: words('Meera Anjali Lakshmi Nimisha Aswathy'),
    surnames: words('Nair Menon Pillai Kurup Warrier'),
  },
  muslim: {
    male: words('Imran Farhan Salman Aamir Irfan Zaid'),
    female: words('Fatima Ayesha Zoya Sana Nazia Rukhsar'),
    surnames: words('Khan Shaikh Siddiqui Ansari Qureshi Sayyed'),
  },
  punjabi: {
    male: words('Gurpreet Harpreet Jaspreet Amandeep Manjeet'),
    female: words('Simran Harleen Jasleen Navneet Manpreet'),
    surnames: words('Singh Gill Sandhu Grewal Dhillon'),
  },
  christian: {
    male: words('Joseph Thomas Anthony Joel Neil Sebastian'),
    female: words('Mary Sarah Sheryl Rachel Anita Teresa'),
    surnames: words("Fernandes D'Souza Pinto Rodrigues Mathew George"),
  },
  bengali: {
    male: words('Sourav Arnab Debashish Anirban Subhajit'),
    female: words('Riya Moumita Ishita Sreya Paromita'),
    surnames: words('Chatterjee Banerjee Mukherjee Das Ghosh Bose'),
  },
} satisfies Record<string, Community>

export type CommunityKey = keyof typeof communities

/** Who lives in each demo city, as weights (a Pune clinic sees mostly Marathi names). */
export const communityMix: Record<'pune' | 'bengaluru', [CommunityKey, number][]> = {
  pune: [
    ['marathi', 45],
    ['hindi', 15],
    ['gujarati', 7],
    ['muslim', 10],
    ['punjabi', 4],
    ['christian', 5],
    ['kannada', 3],
    ['tamilTelugu', 3],
    ['malayali', 3],
    ['bengali', 5],
  ],
  bengaluru: [
    ['kannada', 38],
    ['tamilTelugu', 20],
    ['malayali', 10],
    ['hindi', 10],
    ['muslim', 8],
    ['christian', 7],
    ['marathi', 3],
    ['gujarati', 2],
    ['punjabi', 1],
    ['bengali', 1],
  ],
}

/** Every first name of each sex, for the rules that check a name against its sex. */
export const allMaleNames: ReadonlySet<string> = new Set(
  Object.values(communities).flatMap((c) => c.male),
)
export const allFemaleNames: ReadonlySet<string> = new Set(
  Object.values(communities).flatMap((c) => c.female),
)

/** Insurers and the prefix of their policy numbers. */
export const insurers: readonly [string, string][] = [
  ['Star Health', 'SH'],
  ['HDFC ERGO', 'HE'],
  ['ICICI Lombard', 'IL'],
  ['Niva Bupa', 'NB'],
  ['Care Health', 'CH'],
  ['Aditya Birla Health', 'AB'],
  ['New India Assurance', 'NI'],
  ['Bajaj Allianz', 'BA'],
  ['Tata AIG', 'TA'],
  ['ManipalCigna', 'MC'],
]

export const emailDomains = [
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'yahoo.co.in',
  'outlook.com',
  'rediffmail.com',
  'hotmail.com',
]
