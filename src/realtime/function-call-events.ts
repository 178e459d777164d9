/**
 * The server events that stream one function call of a response: the output item added, its
 * arguments (one delta, then done) and the output item done, in the order the API sends them.
 */

/** A function call output item as the loopback server sends it. */
export interface FunctionCallItem {
  readonly id: string;
  readonly type: string;
  readonly status: string;
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

/** The events announcing `item` at `outputIndex` of response `responseId`, in order. */
export function functionCallEvents(
  responseId: string,
  outputIndex: number,
  item: FunctionCallItem,
): Record<string, unknown>[] {
  return [
    {
      type: 'response.output_item.added',
      response_id: responseId,
      output_index: outputIndex,
      item: { ...item, arguments: '', status: 'in_progress' },
    },
    {
      type: 'response.function_call_arguments.delta',
      response_id: responseId,
      item_id: item.id,
      output_index: outputIndex,
      call_id: item.call_id,
      delta: item.arguments,
    },
    {
      type: 'response.function_call_arguments.done',
      response_id: responseId,
      item_id: item.id,
      output_index: outputIndex,
      call_id: item.call_id,
      name: item.name,
      arguments: item.arguments,
    },
    {
      type: 'response.output_item.done',
      response_id: responseId,
      output_index: outputIndex,
      item,
    },
  ];
}
