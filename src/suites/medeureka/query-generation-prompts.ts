/**
 * MedEureka's query-generation prompt (the paper's Figure C11, for its Table task): a table from a
 * medical manual in, a JSON object with the table's name, the chosen column and rows, a question
 * and its answer out. `zh` is the paper's text, transcribed from the PDF (its line wrapping
 * undone: one line per field, a blank line where the figure has one). `en` is medbench's
 * translation, with English keys. Slots are Python `str.format` ones: `{example_table}`,
 * `{example_output}`, `{query_table}`.
 */
export const TABLE_QUERY_PROMPTS = {
  zh: '        我将给你一份来源于专业医学诊疗手册的表格。首先我需要你理解该表格的空间布局以及包含的信息类型，并选择某一列作为提问的依据；其次，从你所选取的列中挑选出两到三行，在理解行内容的基础上，根据这些行对应单元格中的信息生成一个问题，要求提问要专业且具有逻辑性，严格涉及了所有筛选出的单元格的信息，输出应包含以下五个部分：\n\n    表名：表格的名称\n    列：选取的列\n    行：选取的行集\n    问题：生成的问题\n    答案: 根据问题以及单元格内容生成的回答\n\n========================================================================\n\n以下是一个示例\n\n【示例表格】\n     {example_table}\n\n【示例输出】\n```json\n{example_output}\n```\n\n=======================================================================\n\n【表格】\n     {query_table}\n\n【输出】',
  en: "        I will give you a table from a professional medical diagnosis and treatment manual. First, understand the table's layout and the kinds of information it holds, and choose one column as the basis of your question; then pick two or three rows of that column and, understanding what the rows say, write one question from the information in those rows' cells. The question must be professional and logical and must involve the information of every chosen cell. The output has these five parts:\n\n    table: the name of the table\n    column: the chosen column\n    rows: the chosen rows\n    question: the generated question\n    answer: the answer to the question from the cells' content\n\n========================================================================\n\nHere is an example\n\n[Example table]\n     {example_table}\n\n[Example output]\n```json\n{example_output}\n```\n\n=======================================================================\n\n[Table]\n     {query_table}\n\n[Output]",
} as const;

/**
 * The paper's example output (Figure C11), the `zh` prompt's `{example_output}` unless the user
 * gives one. Its table (MSD's causes of chest pain) is not in the paper: the user gives an example
 * table (`--example-table`), ideally that one for the paper's exact prompt.
 */
export const PAPER_EXAMPLE_OUTPUT_ZH =
  '    {\n        "表名":"胸痛的病因",\n        "列":"有提示意义的临床表现",\n        "行":["急性心肌梗死（心血管）", "胸主动脉夹层（心血管）","食管破裂"],\n        "问题":"急性心肌梗死的临床表现包括突发的压榨样胸痛向下颌或上肢放射，劳力性胸痛在休息后缓解，以及常有红色信号表现等。胸主动脉夹层则表现为突发的撕裂样胸痛向后背放射，可能伴有晕厥、卒中或下肢缺血，四肢脉搏或血压不相同，且常见于年龄>55岁和高血压患者。食管破裂的典型表现包括呕吐或器械检查后突发、严重的胸痛，听诊有皮下捻发音，以及多个红色信号表现。请结合这些信息，分析这三种病因的疼痛性质、伴随症状及常见的体征差异。",\n       "答案":"急性心肌梗死的疼痛性质为突发的压榨样胸痛，通常向下颌或上肢放射，并伴随劳力性胸痛在休息后缓解，常伴有红色信号表现，如异常生命体征和气短。胸主动脉夹层的疼痛为突发的撕裂样胸痛，向后背放射，常见于年龄>55岁和高血压患者，可能伴有晕厥、卒中或下肢缺血，四肢脉搏或血压不相同。食管破裂的疼痛通常在呕吐或器械检查后突发，表现为严重的胸痛，听诊时可发现皮下捻发音，并伴有多个红色信号表现，如低血压和气急。这些特征可以帮助区分这三种病因。"\n    }';

/** medbench's translation of the paper's example output: the `en` prompt's default. */
export const EXAMPLE_OUTPUT_EN =
  '    {\n        "table":"Causes of chest pain",\n        "column":"Suggestive findings",\n        "rows":["Acute myocardial infarction (cardiovascular)", "Thoracic aortic dissection (cardiovascular)","Esophageal rupture"],\n        "question":"Acute myocardial infarction presents with sudden, crushing chest pain radiating to the jaw or arm, exertional chest pain relieved by rest, and often red flag findings. Thoracic aortic dissection presents with sudden, tearing chest pain radiating to the back, possibly with syncope, stroke or leg ischemia, unequal pulses or blood pressures in the limbs, and is common in patients over 55 and with hypertension. Esophageal rupture typically presents with sudden, severe chest pain after vomiting or instrumentation, subcutaneous crepitus on auscultation, and several red flag findings. Using this information, compare the character of the pain, the accompanying symptoms and the usual signs of these three causes.",\n        "answer":"In acute myocardial infarction the pain is sudden and crushing, usually radiating to the jaw or arm, exertional and relieved by rest, often with red flag findings such as abnormal vital signs and dyspnea. In thoracic aortic dissection it is sudden and tearing, radiating to the back, common in patients over 55 and with hypertension, possibly with syncope, stroke or leg ischemia and unequal pulses or blood pressures. In esophageal rupture it usually starts suddenly after vomiting or instrumentation, is severe, with subcutaneous crepitus on auscultation and several red flag findings such as hypotension and tachypnea. These features help tell the three causes apart."\n    }';
