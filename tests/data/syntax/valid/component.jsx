import React, { useState } from "react";

export function List({ items = [], onPick }) {
  const [picked, setPicked] = useState(null);
  return (
    <>
      <ul className="list" data-count={items.length}>
        {items.map((item) => (
          <li key={item.id} onClick={() => { setPicked(item); onPick?.(item); }}>
            {item.label ?? <em>untitled</em>} {picked === item && <strong>✓</strong>}
          </li>
        ))}
      </ul>
      <Footer {...{ picked }} render={(x) => <span>{x}</span>} />
    </>
  );
}

const Footer = ({ picked, render }) => <footer>{render(picked?.label)}</footer>;
