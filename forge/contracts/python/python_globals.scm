; `global NAME` declarations anywhere in a Python file: a function that
; declares a name global binds it in the module, read by
; forge.contracts.python.exports.

(global_statement (identifier) @name)
