; tandem tags for Ruby: modules, classes, methods, singleton methods, constants, attribute
; accessors; calls, constants used, superclasses.

(method name: (_) @name.definition.method) @definition.method
(singleton_method name: (_) @name.definition.method) @definition.method
(class name: (constant) @name.definition.class) @definition.class
(class name: (scope_resolution name: (constant) @name.definition.class)) @definition.class
(module name: (constant) @name.definition.module) @definition.module
(module name: (scope_resolution name: (constant) @name.definition.module)) @definition.module
(assignment left: (constant) @name.definition.constant) @definition.constant
(call
  method: (identifier) @_accessor
  arguments: (argument_list (simple_symbol) @name.definition.field)
  (#match? @_accessor "^attr_(reader|writer|accessor)$")) @definition.field

(superclass (constant) @name.reference.class)
(superclass (scope_resolution name: (constant) @name.reference.class))
(call method: (identifier) @name.reference.call)
(call receiver: (constant) @name.reference.class)
(constant) @name.reference.class
