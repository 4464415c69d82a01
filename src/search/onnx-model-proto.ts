/**
 * A minimal writer for ONNX `ModelProto` bytes: enough to describe small graphs (exact search,
 * tiny test models) without a protobuf dependency. Field numbers follow onnx/onnx.proto.
 */

export type OnnxElementType = 'float' | 'int64';

const ELEMENT_TYPE: Record<OnnxElementType, number> = { float: 1, int64: 7 };

export interface OnnxValueInfo {
  name: string;
  type: OnnxElementType;
  /** A number is a fixed size, a string a symbolic one. */
  shape: ReadonlyArray<number | string>;
}

export interface OnnxInitializer {
  name: string;
  type: OnnxElementType;
  dims: readonly number[];
  values: Float32Array | BigInt64Array;
}

export interface OnnxNode {
  opType: string;
  inputs: readonly string[];
  outputs: readonly string[];
  /** Integer and integer-list attributes (all this project's graphs need). */
  attributes?: Record<string, number | readonly number[]>;
}

export interface OnnxGraph {
  name: string;
  nodes: readonly OnnxNode[];
  inputs: readonly OnnxValueInfo[];
  outputs: readonly OnnxValueInfo[];
  initializers?: readonly OnnxInitializer[];
  opsetVersion?: number;
}

class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];

  private varint(value: bigint | number): void {
    let rest = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    while (rest >= 0x80n) {
      bytes.push(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    bytes.push(Number(rest));
    this.chunks.push(Uint8Array.from(bytes));
  }

  int(field: number, value: number | bigint): this {
    this.varint(field << 3);
    this.varint(value);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.varint((field << 3) | 2);
    this.varint(value.length);
    this.chunks.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, build: (writer: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    const length = this.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const out = new Uint8Array(length);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

function writeValueInfo(writer: ProtoWriter, info: OnnxValueInfo): void {
  writer.string(1, info.name).message(2, (type) =>
    type.message(1, (tensor) =>
      tensor.int(1, ELEMENT_TYPE[info.type]).message(2, (shape) => {
        for (const dimension of info.shape)
          shape.message(1, (dim) =>
            typeof dimension === 'number' ? dim.int(1, dimension) : dim.string(2, dimension),
          );
      }),
    ),
  );
}

function writeNode(writer: ProtoWriter, node: OnnxNode, index: number): void {
  for (const input of node.inputs) writer.string(1, input);
  for (const output of node.outputs) writer.string(2, output);
  writer.string(3, `${node.opType.toLowerCase()}_${index}`).string(4, node.opType);
  for (const [name, value] of Object.entries(node.attributes ?? {})) {
    writer.message(5, (attribute) => {
      attribute.string(1, name);
      if (typeof value === 'number') attribute.int(3, value).int(20, 2);
      else {
        for (const item of value) attribute.int(8, item);
        attribute.int(20, 7);
      }
    });
  }
}

function writeInitializer(writer: ProtoWriter, initializer: OnnxInitializer): void {
  for (const dimension of initializer.dims) writer.int(1, dimension);
  writer.int(2, ELEMENT_TYPE[initializer.type]).string(8, initializer.name);
  const { buffer, byteOffset, byteLength } = initializer.values;
  writer.bytes(9, new Uint8Array(buffer, byteOffset, byteLength));
}

/** Serialises a graph as an ONNX model (IR version 8, default opset 17). */
export function onnxModelBytes(graph: OnnxGraph): Uint8Array {
  const writer = new ProtoWriter();
  writer.int(1, 8);
  writer.string(2, 'medbench');
  writer.message(7, (graphWriter) => {
    graph.nodes.forEach((node, index) => {
      graphWriter.message(1, (nodeWriter) => writeNode(nodeWriter, node, index));
    });
    graphWriter.string(2, graph.name);
    for (const initializer of graph.initializers ?? [])
      graphWriter.message(5, (tensor) => writeInitializer(tensor, initializer));
    for (const input of graph.inputs) graphWriter.message(11, (info) => writeValueInfo(info, input));
    for (const output of graph.outputs) graphWriter.message(12, (info) => writeValueInfo(info, output));
  });
  writer.message(8, (opset) => opset.string(1, '').int(2, graph.opsetVersion ?? 17));
  return writer.finish();
}
