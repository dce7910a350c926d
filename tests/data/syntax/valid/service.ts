// Modern TypeScript: generics, satisfies, decorators, enums, overloads,
// abstract classes, template literal types, conditional and mapped types.
export type Route = `/${string}`;
type Handler<T extends object = {}> = (input: T) => Promise<Response> | Response;
type Awaited2<T> = T extends PromiseLike<infer U> ? Awaited2<U> : T;
type ReadonlyDeep<T> = { readonly [K in keyof T]: ReadonlyDeep<T[K]> };

export enum Method {
  Get = "GET",
  Post = "POST",
}

export const routes = {
  home: "/",
  users: "/users",
} satisfies Record<string, Route>;

function logged(target: unknown, context: ClassMethodDecoratorContext): void {
  void target;
  void context;
}

export abstract class Service<TConfig extends { name: string }> {
  private readonly handlers = new Map<Route, Handler>();
  protected abstract config: TConfig;
  declare cache?: ReadonlyDeep<Record<string, number>>;

  constructor(public readonly id: number, private secret?: string) {}

  @logged
  register<T extends object>(route: Route, handler: Handler<T>): this {
    this.handlers.set(route, handler as Handler);
    return this;
  }

  find(route: Route): Handler | undefined;
  find(route: string): Handler | undefined;
  find(route: string): Handler | undefined {
    return this.handlers.get(route as Route);
  }
}

const identity = <T,>(value: T): T => value;
const asserted = <number>identity(1);
const nonNull = identity<string | null>("x")!;
export const value = (asserted as unknown as Awaited2<Promise<number>>) + nonNull.length;

export function isRoute(x: unknown): x is Route {
  return typeof x === "string" && x.startsWith("/");
}

export namespace Util {
  export const clamp = (n: number, lo = 0, hi = 1) => Math.min(hi, Math.max(lo, n));
}

let tuple: [first: string, second?: number, ...rest: boolean[]] = ["a"];
const key: keyof typeof routes = "home";
for (const _ of tuple) { void key; }
using_: { const accessor = 1; void accessor; }
