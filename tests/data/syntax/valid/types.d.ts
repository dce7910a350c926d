declare module "virtual:config" {
  export interface Config {
    readonly name: string;
    plugins?: Array<string | [string, Record<string, unknown>]>;
    [key: `x-${string}`]: unknown;
  }
  const config: Config;
  export default config;
}

declare global {
  interface Window {
    __APP__?: { version: string };
  }
}

export declare function defineConfig<const T extends object>(config: T): T;
export type { Config } from "virtual:config";
