; inherits: ecma, jsx
; tandem tags for JavaScript: ecma.scm and jsx.scm, plus the class names that TypeScript spells differently.

(class_declaration name: (identifier) @name.definition.class) @definition.class
(class name: (identifier) @name.definition.class) @definition.class
(class_heritage (identifier) @name.reference.class)
(class_heritage (member_expression property: (property_identifier) @name.reference.class))
