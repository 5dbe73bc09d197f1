; tandem tags for C: functions, prototypes, structs, unions, enums, typedefs, macros; calls and type uses.

(function_definition declarator: (function_declarator declarator: (identifier) @name.definition.function)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))) @definition.function
(declaration declarator: (function_declarator declarator: (identifier) @name.definition.function)) @definition.function
(declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))) @definition.function

(struct_specifier name: (type_identifier) @name.definition.class body: (_)) @definition.class
(union_specifier name: (type_identifier) @name.definition.class body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name.definition.enum body: (_)) @definition.enum
(enumerator name: (identifier) @name.definition.constant) @definition.constant
(type_definition declarator: (type_identifier) @name.definition.type) @definition.type
(preproc_def name: (identifier) @name.definition.constant) @definition.constant
(preproc_function_def name: (identifier) @name.definition.macro) @definition.macro

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(type_identifier) @name.reference.type
