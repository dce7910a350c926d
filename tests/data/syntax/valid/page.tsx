import { useMemo, type ReactNode } from "react";

interface Props<T> {
  items: readonly T[];
  render: (item: T, index: number) => ReactNode;
  empty?: ReactNode;
}

// In .tsx a generic arrow function needs the trailing comma: <T,>.
export const List = <T,>({ items, render, empty = <p>nothing</p> }: Props<T>) => {
  const rows = useMemo(() => items.map((item, i) => <li key={i}>{render(item, i)}</li>), [items, render]);
  return items.length ? <ul aria-label="list">{rows}</ul> : <>{empty}</>;
};

export function Page({ title }: { title?: string }) {
  const data = [1, 2, 3] satisfies number[];
  return (
    <main>
      <h1 className={title ? "titled" : undefined}>{title ?? "Untitled"}</h1>
      <List<number> items={data} render={(n) => <span>{n as number}</span>} />
      {data.length > 2 && <footer>{`${data.length} rows`}</footer>}
    </main>
  );
}
