/** Word lists for realistic demo patients across Indian regions. */
export const firstNamesMale = [
  'Aarav', 'Vihaan', 'Arjun', 'Rohan', 'Siddharth', 'Karthik', 'Pranav', 'Rahul', 'Vikram', 'Aditya',
  'Suresh', 'Ramesh', 'Mahesh', 'Ganesh', 'Anil', 'Sanjay', 'Deepak', 'Manoj', 'Harish', 'Naveen',
  'Imran', 'Farhan', 'Gurpreet', 'Harpreet', 'Joseph', 'Thomas', 'Venkatesh', 'Srinivas', 'Omkar', 'Tejas',
]
export const firstNamesFemale = [
  'Ananya', 'Diya', 'Saanvi', 'Priya', 'Kavya', 'Meera', 'Pooja', 'Sneha', 'Lakshmi', 'Divya',
  'Sunita', 'Anjali', 'Neha', 'Shreya', 'Aishwarya', 'Bhavana', 'Radha', 'Geeta', 'Asha', 'Rekha',
  'Fatima', 'Ayesha', 'Simran', 'Manpreet', 'Mary', 'Sarah', 'Padmavathi', 'Sowmya', 'Rutuja', 'Madhuri',
]
export const lastNames = [
  'Sharma', 'Verma', 'Patil', 'Deshmukh', 'Kulkarni', 'Joshi', 'Iyer', 'Reddy', 'Nair', 'Menon',
  'Rao', 'Gowda', 'Shetty', 'Kamath', 'Pillai', 'Gupta', 'Agarwal', 'Mehta', 'Shah', 'Desai',
  'Khan', 'Shaikh', 'Singh', 'Gill', 'Fernandes', "D'Souza", 'Chatterjee', 'Banerjee', 'Mukherjee', 'Bhat',
]
export const insurers = [
  'Star Health', 'HDFC ERGO', 'ICICI Lombard', 'Niva Bupa', 'Care Health', 'Aditya Birla Health',
  'New India Assurance', 'Bajaj Allianz', 'Tata AIG', 'ManipalCigna',
]
export const conditions = [
  'Type 2 diabetes, on metformin 500 mg twice daily',
  'Hypertension, on amlodipine 5 mg',
  'Hypothyroidism, on thyroxine 50 mcg',
  'Asthma since childhood, uses salbutamol inhaler',
  'Appendectomy in 2015',
  'Knee replacement (right) in 2021',
  'PCOS, under follow-up',
  'Dengue fever in 2023, fully recovered',
  'Migraine, occasional',
  'Gallbladder removed in 2019',
  'Root canal treatment, lower left molar, 2022',
  'Braces removed in 2020',
  'Gestational diabetes during last pregnancy',
  'Mild anaemia, on iron supplements',
]
export const allergyList = ['Penicillin', 'Sulfa drugs', 'Peanuts', 'Dust mites', 'Shellfish', 'Latex', 'Aspirin', 'Pollen', 'Lactose']
export const puneAreas = [
  'Flat 302, Shivneri Apartments, Kothrud, Pune 411038',
  '14, Lane 5, Koregaon Park, Pune 411001',
  'B-12, Sai Residency, Baner, Pune 411045',
  '7, Prabhat Road, Erandwane, Pune 411004',
  'C-504, Magarpatta City, Hadapsar, Pune 411028',
  '22, Aundh Road, Aundh, Pune 411007',
  'A-101, Kumar Pacific, Wakad, Pune 411057',
  '9, Shaniwar Peth, Pune 411030',
]
export const bengaluruAreas = [
  '#45, 3rd Cross, Indiranagar, Bengaluru 560038',
  'Flat 1204, Prestige Shantiniketan, Whitefield, Bengaluru 560048',
  '#12, 8th Main, Jayanagar 4th Block, Bengaluru 560011',
  '#88, 17th Cross, HSR Layout Sector 4, Bengaluru 560102',
  '#3, Malleshwaram 15th Cross, Bengaluru 560003',
  'B-304, Sobha Dream Acres, Panathur, Bengaluru 560087',
  '#21, Koramangala 5th Block, Bengaluru 560095',
  '#67, BTM Layout 2nd Stage, Bengaluru 560076',
]
