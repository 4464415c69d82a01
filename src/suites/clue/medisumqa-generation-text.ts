/**
 * The strings of CLUE's MeDiSumQA generation, character for character: `data/MeDiSumQA/prompts.py`
 * and the shipped few-shot answer `data/MeDiSumQA/example_statements.txt` of TIO-IKIM/CLUE (last
 * changed in commit b434ea4). `{instructions}` and `{statements}` are Python `str.format` slots.
 * src/suites/clue/medisumqa-generation.test.ts checks each against the SHA-256 of the original.
 */
export const MEDISUMQA_GENERATION_TEXT = {
  /** `fact_extraction_system_prompt` */
  factExtractionSystem:
    'You are a highly skilled assistant, specifically trained to assist medical professionals in interpreting and extracting key information from medical documents. Your primary responsibility will be to analyze discharge instructions from hospitals. You will receive such a discharge instruction. Your task is to extract all statements about the patient\'s stay in the hospital. Strictly limit the statements to information during the stay. Do not include follow-up decisions, discharge instructions or recommendations. In general do not include any statements that describe the future. Do not mention anonymized names recognisable by "___". Do not add anything that is not part of the input. List the statements line by line.',
  /** `fact_extraction_user_template` */
  factExtractionUser:
    '\n--------------BEGIN DISCHARGE INSTRUCTIONS--------------\n{instructions}\n--------------END DISCHARGE INSTRUCTIONS--------------',
  /** `fact_extraction_answer` */
  factExtractionAnswer: '\n{statements}',
  /** `question_generation_system_prompt` */
  questionSystem:
    'You are a helpful assistant that is specialized in medical topics. You will be given a list of the statements that contain information about a patient. For each statement formulate a question that is answered by the given statement. Make sure that the each statement gives a meaningful answer to the formulated question. Make sure that the question is not so specific that the answer is obvious. The overlap between the information in the question and the answer should be minimal.',
  /** `question_generation_example_input` */
  questionExampleInput:
    "\nStatements:\n- The thyroid panel is pending.\n- The fevers could have been caused by an infection in the patient's PICC line or blood.\n- The patient's seizures stopped, but they remained sedated afterwards.\n- A CT scan of the chest showed improved clots in the lung compared to prior scans, indicating that lovenox is working well.\n- The patient was found to be dehydrated and improved with fluids.\"\n- The patient was found to have occlusion of the left internal carotid artery and a stroke in the left middle cerebral artery distribution.\n- It is possible that the patient had a small stroke or that their blood pressure dropped too quickly when standing up.",
  /** `question_generation_example_output` */
  questionExampleOutput:
    "\nQuestion: Are there any pending test results for the patient?\nAnswer: The thyroid panel is pending.\nQuestion: What were the possible sources of the patient's fevers?\nAnswer: The fevers could have been caused by an infection in the patient's PICC line or blood.\nQuestion: What was the immediate effect of the seizure medications on the patient?\nAnswer: The patient's seizures stopped, but they remained sedated afterwards.\nQuestion: How effective has the lovenox been in treating the pulmonary embolus?\nAnswer: A CT scan of the chest showed improved clots in the lung compared to prior scans, indicating that lovenox is working well.\nQuestion: What was a significant finding in the patient's condition?\nAnswer: The patient was found to be dehydrated and improved with fluids.\"\nQuestion: What was the finding on the patient's evaluation?\nAnswer: The patient was found to have occlusion of the left internal carotid artery and a stroke in the left middle cerebral artery distribution.\nQuestion: What are the remaining possibilities for the cause of the patient's symptoms?\nAnswer: It is possible that the patient had a small stroke or that their blood pressure dropped too quickly when standing up.",
  /** `questions_generation_user_template` */
  questionUser: '\nStatements:\n{statements}\n',
  /** `example_statements` */
  exampleStatements:
    "Statements:\n- The patient was admitted to the hospital due to progressive swelling in the legs and abdomen.\n- The cause of the symptoms was identified as cirrhosis, likely due to long-term alcohol use.\n- The patient underwent an MR, which demonstrated no blood clots in the liver.\n- Blood work did not identify an autoimmune cause for the cirrhosis.\n- An echocardiogram showed some trace fluid surrounding the heart, which was otherwise functioning normally.\n- The patient was treated with multiple diuretics to remove excess fluid from the body and decrease leg swelling.\n- The patient underwent a paracentesis procedure to remove fluid from the abdomen.\n- After several days of diuresis with IV medications, the patient was changed to an oral dose of diuretics.\n- The patient initially had a very high white blood cell count upon admission.\n- The patient was evaluated for a source of infection but no cause was identified.\n- The patient was treated with a week of IV antibiotics, yet the white blood cell count remained elevated.\n- The patient's thyroid levels were very low, and thyroid medications were increased to address potential contribution to edema symptoms.\n- A small mass likely to be a benign growth called an IPMN was observed on the MRI.",
} as const;
