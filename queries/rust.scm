; tandem tags for Rust: structs, enums, unions, traits, type aliases, functions and methods,
; constants, statics, modules, macros; calls, type uses, macro uses, trait impls.

(impl_item body: (declaration_list (function_item name: (identifier) @name.definition.method) @definition.method))
(trait_item body: (declaration_list (function_item name: (identifier) @name.definition.method) @definition.method))
(function_item name: (identifier) @name.definition.function) @definition.function
(function_signature_item name: (identifier) @name.definition.method) @definition.method

(struct_item name: (type_identifier) @name.definition.class) @definition.class
(union_item name: (type_identifier) @name.definition.class) @definition.class
(enum_item name: (type_identifier) @name.definition.enum) @definition.enum
(trait_item name: (type_identifier) @name.definition.interface) @definition.interface
(type_item name: (type_identifier) @name.definition.type) @definition.type
(const_item name: (identifier) @name.definition.constant) @definition.constant
(static_item name: (identifier) @name.definition.constant) @definition.constant
(mod_item name: (identifier) @name.definition.module) @definition.module
(macro_definition name: (identifier) @name.definition.macro) @definition.macro

(impl_item trait: (type_identifier) @name.reference.interface)
(impl_item type: (type_identifier) @name.reference.class)
(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(call_expression function: (scoped_identifier name: (identifier) @name.reference.call))
(macro_invocation macro: (identifier) @name.reference.macro)
(type_identifier) @name.reference.type
(field_expression field: (field_identifier) @name.reference.field)
(use_declaration argument: (scoped_identifier name: (identifier) @name.reference.module))
