; What a class extends, in the javascript, typescript and tsx grammars alike.
(class_heritage) @heritage
