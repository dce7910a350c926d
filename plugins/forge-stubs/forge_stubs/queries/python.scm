; Every Python function and method, async ones included. Whether its body is a
; placeholder, and whether it is exempt (@abstractmethod, Protocol member,
; @overload), is decided in python_rules.py from the captured nodes.
(function_definition
  name: (identifier) @name
  body: (block) @body) @function
