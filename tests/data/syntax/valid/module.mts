import type { IncomingMessage } from "node:http";

export const accept = async (req: IncomingMessage): Promise<boolean> =>
  (req.headers["content-type"] ?? "").includes("json");

const result = await accept({ headers: {} } as IncomingMessage);
export { result };
