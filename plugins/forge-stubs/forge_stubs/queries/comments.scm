; Every comment; the three grammars all call the node `comment`.
(comment) @comment
