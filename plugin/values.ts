/**
 * Values on their way back to the SDK's provider server, which turns them into protobuf Structs:
 * `Struct.fromJavaScript` throws on `undefined` (an optional output the runtime left unset), and a
 * throw there leaves the engine's call unanswered. A JSON round trip drops them, as the
 * dynamic-provider host's own serialization does.
 */
export function plain<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The engine's marker of a secret value in a Struct (`KeepSecrets`), as its Go and Node SDKs spell it. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** The value inside a secret marker; other values as they are. */
export function unwrapSecret(v: unknown): unknown {
  if (v !== null && typeof v === "object" && (v as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE) {
    return (v as { value?: unknown }).value;
  }
  return v;
}
