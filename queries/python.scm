; tandem tags for Python: classes, functions, methods, module-level names; calls, bases, types, imports.

; Methods first, so a function inside a class body is tagged as a method.
(class_definition
  body: (block
    (function_definition name: (identifier) @name.definition.method) @definition.method))

(class_definition
  body: (block
    (decorated_definition
      definition: (function_definition name: (identifier) @name.definition.method) @definition.method)))

(class_definition name: (identifier) @name.definition.class) @definition.class

(function_definition name: (identifier) @name.definition.function) @definition.function

; Module-level assignments: UPPER_CASE ones are constants, the rest variables.
(module
  (expression_statement
    (assignment left: (identifier) @name.definition.constant) @definition.constant)
  (#match? @name.definition.constant "^[A-Z][A-Z0-9_]*$"))

(module
  (expression_statement
    (assignment left: (identifier) @name.definition.variable) @definition.variable))

(call function: (identifier) @name.reference.call)
(call function: (attribute attribute: (identifier) @name.reference.call))

(class_definition superclasses: (argument_list (identifier) @name.reference.class))
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @name.reference.class)))

(decorator (identifier) @name.reference.call)
(decorator (attribute attribute: (identifier) @name.reference.call))

(type (identifier) @name.reference.type)
(generic_type (identifier) @name.reference.type)
(type (subscript value: (identifier) @name.reference.type))
(type (subscript subscript: (identifier) @name.reference.type))

(import_from_statement name: (dotted_name (identifier) @name.reference.module))
(aliased_import name: (dotted_name (identifier) @name.reference.module))

(attribute attribute: (identifier) @name.reference.attribute)
