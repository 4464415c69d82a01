export * from './chat-model.js';
export * from './embedding-model.js';
export * from './errors.js';
export * from './metric.js';
export * from './retriever.js';
export * from './sample.js';
export * from './task.js';
export * from './tokenizer.js';
