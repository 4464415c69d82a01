/** A metric is a small pure function; it never does I/O. */
export type Metric<Prediction, Reference> = (prediction: Prediction, reference: Reference) => number;
