import { MedbenchError } from '../../core/errors.js';

/** A local model folder medbench cannot use: what is wrong and how to fix it. */
export function folderError(message: string, hint: string): MedbenchError {
  return new MedbenchError({ code: 'MODEL_FOLDER_INVALID', message, hint });
}
