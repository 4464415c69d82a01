/** medbench's version, recorded in every dataset file it writes. */
export const VERSION = '0.1.0';
