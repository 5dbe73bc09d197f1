; tandem tags for C++: namespaces, classes, structs, unions, enums, aliases, functions, methods
; (inline, declared, defined out of line), macros; calls, type uses.

; Methods first: functions declared or defined inside a class body.
(field_declaration_list (function_definition declarator: (function_declarator declarator: [(field_identifier) (identifier) (destructor_name) (operator_name)] @name.definition.method)) @definition.method)
(field_declaration_list (function_definition declarator: (reference_declarator (function_declarator declarator: (field_identifier) @name.definition.method))) @definition.method)
(field_declaration_list (function_definition declarator: (pointer_declarator (function_declarator declarator: (field_identifier) @name.definition.method))) @definition.method)
(field_declaration_list (field_declaration declarator: (function_declarator declarator: (field_identifier) @name.definition.method)) @definition.method)
(field_declaration_list (declaration declarator: (function_declarator declarator: (identifier) @name.definition.method)) @definition.method)
; Out-of-line definitions: Class::method.
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name.definition.method))) @definition.method
(function_definition declarator: (reference_declarator (function_declarator declarator: (qualified_identifier name: (identifier) @name.definition.method)))) @definition.method
(function_definition declarator: (pointer_declarator (function_declarator declarator: (qualified_identifier name: (identifier) @name.definition.method)))) @definition.method

(function_definition declarator: (function_declarator declarator: (identifier) @name.definition.function)) @definition.function
(function_definition declarator: (pointer_declarator (function_declarator declarator: (identifier) @name.definition.function))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: (identifier) @name.definition.function))) @definition.function
(declaration declarator: (function_declarator declarator: (identifier) @name.definition.function)) @definition.function

(namespace_definition name: (namespace_identifier) @name.definition.module) @definition.module
(class_specifier name: (type_identifier) @name.definition.class body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name.definition.class body: (_)) @definition.class
(union_specifier name: (type_identifier) @name.definition.class body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name.definition.enum body: (_)) @definition.enum
(enumerator name: (identifier) @name.definition.constant) @definition.constant
(type_definition declarator: (type_identifier) @name.definition.type) @definition.type
(alias_declaration name: (type_identifier) @name.definition.type) @definition.type
(preproc_def name: (identifier) @name.definition.constant) @definition.constant
(preproc_function_def name: (identifier) @name.definition.macro) @definition.macro
(namespace_definition body: (declaration_list (declaration declarator: (init_declarator declarator: (identifier) @name.definition.constant)) @definition.constant))
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name.definition.constant)) @definition.constant)

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(call_expression function: (qualified_identifier name: (identifier) @name.reference.call))
(base_class_clause (type_identifier) @name.reference.class)
(type_identifier) @name.reference.type
