/** One Server-Sent Events frame: its event name, its data parsed as JSON, its id (null when it has none). */
export interface SseFrame {
  event: string;
  data: any;
  id: string | null;
}

/**
 * Reads the frames of an SSE response body as they arrive, calling `onFrame` for each frame with an
 * event and data; resolves when the body ends (or its request is aborted).
 */
export async function readSseFrames(body: ReadableStream<Uint8Array> | null, onFrame: (frame: SseFrame) => void): Promise<void> {
  if (!body) return;
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const frame = text.slice(0, end);
        text = text.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event && data) onFrame({ event, data: JSON.parse(data), id: /^id: (.*)$/m.exec(frame)?.[1] ?? null });
      }
    }
  } catch {
    // Aborted by the test: the stream ends here.
  }
}
