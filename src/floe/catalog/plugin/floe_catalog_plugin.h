/* The C ABI of floe catalog plugins (`catalog-impl` = path of a shared library), version 1.
 *
 * A plugin is a metastore: it maps table identifiers to the location of their current metadata
 * file and swaps that location atomically. floe writes and reads the metadata files itself, so a
 * plugin never parses Iceberg metadata. Only C types cross the boundary (no C++ objects, no
 * exceptions, no memory freed on the other side), so a plugin may be built by any compiler, in C
 * or any language that exports C functions. See docs/catalog-plugins.md.
 *
 * The library exports one function, FLOE_CATALOG_PLUGIN_ENTRY, which returns a table of function
 * pointers. Every function returns FLOE_PLUGIN_OK or an error kind, and on error writes one
 * message to `error`. Strings are NUL-terminated UTF-8, valid for the duration of the call.
 * Results are handed back through floe_plugin_sink callbacks, which copy what they receive. All
 * functions may be called from several threads at once with the same handle. */
#ifndef FLOE_CATALOG_PLUGIN_H_
#define FLOE_CATALOG_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FLOE_CATALOG_PLUGIN_ABI_VERSION 1
#define FLOE_CATALOG_PLUGIN_ENTRY "floe_catalog_plugin_v1"

/* Status codes. */
#define FLOE_PLUGIN_OK 0
#define FLOE_PLUGIN_INVALID_ARGUMENT 1
#define FLOE_PLUGIN_NOT_FOUND 2
#define FLOE_PLUGIN_ALREADY_EXISTS 3
/* The expected metadata location was not current: floe retries the commit. */
#define FLOE_PLUGIN_COMMIT_FAILED 4
/* The swap may or may not have happened: floe neither retries nor cleans up. */
#define FLOE_PLUGIN_COMMIT_STATE_UNKNOWN 5
#define FLOE_PLUGIN_IO 6
#define FLOE_PLUGIN_UNSUPPORTED 7
#define FLOE_PLUGIN_INTERNAL 8

/* Receives strings: each call hands over one string of `size` bytes (not NUL-terminated). */
typedef struct floe_plugin_sink {
  void* context;
  void (*put)(void* context, const char* data, size_t size);
} floe_plugin_sink;

/* A namespace (name == NULL) or a table identifier: `level_count` namespace levels, then the
 * table name. Levels and names are validated by floe: never empty, ".", "..", nor containing
 * '/', '\\' or control characters. */
typedef struct floe_plugin_ident {
  const char* const* levels;
  size_t level_count;
  const char* name;
} floe_plugin_ident;

typedef struct floe_catalog_plugin {
  /* FLOE_CATALOG_PLUGIN_ABI_VERSION and sizeof(floe_catalog_plugin) as the plugin was built. */
  uint32_t abi_version;
  uint32_t struct_size;

  /* Creates a catalog from its name and properties (every property of CREATE CATALOG except
   * catalog-impl and floe's own cache settings), as `count` key/value pairs. */
  int32_t (*create)(const char* name, const char* const* keys, const char* const* values,
                    size_t count, void** handle, floe_plugin_sink* error);
  void (*destroy)(void* handle);

  /* Namespaces. list_namespaces puts the last level of each child of `parent` (level_count 0:
   * the top level); load_namespace_properties puts key, value, key, value... */
  int32_t (*create_namespace)(void* handle, const floe_plugin_ident* ns, const char* const* keys,
                              const char* const* values, size_t count, floe_plugin_sink* error);
  int32_t (*list_namespaces)(void* handle, const floe_plugin_ident* parent, floe_plugin_sink* out,
                             floe_plugin_sink* error);
  int32_t (*namespace_exists)(void* handle, const floe_plugin_ident* ns, int32_t* exists,
                              floe_plugin_sink* error);
  int32_t (*load_namespace_properties)(void* handle, const floe_plugin_ident* ns,
                                       floe_plugin_sink* out, floe_plugin_sink* error);
  int32_t (*update_namespace_properties)(void* handle, const floe_plugin_ident* ns,
                                         const char* const* keys, const char* const* values,
                                         size_t count, const char* const* removals,
                                         size_t removal_count, floe_plugin_sink* error);
  /* NOT_FOUND when missing, INVALID_ARGUMENT when it still holds tables or namespaces. */
  int32_t (*drop_namespace)(void* handle, const floe_plugin_ident* ns, floe_plugin_sink* error);

  /* Tables. list_tables puts each table name. */
  int32_t (*list_tables)(void* handle, const floe_plugin_ident* ns, floe_plugin_sink* out,
                         floe_plugin_sink* error);
  /* Puts the location of the table's current metadata file; NOT_FOUND when there is no table. */
  int32_t (*load_table)(void* handle, const floe_plugin_ident* table, floe_plugin_sink* out,
                        floe_plugin_sink* error);
  /* Puts the folder a new table gets when CREATE TABLE names no location. */
  int32_t (*default_table_location)(void* handle, const floe_plugin_ident* table,
                                    floe_plugin_sink* out, floe_plugin_sink* error);
  /* Adds a table whose first metadata file floe has written (create and register table).
   * ALREADY_EXISTS when the identifier is taken, NOT_FOUND when the namespace is missing. */
  int32_t (*create_table)(void* handle, const floe_plugin_ident* table,
                          const char* metadata_location, floe_plugin_sink* error);
  /* The commit: atomically sets the table's metadata location to new_location if it is still
   * expected_location, else COMMIT_FAILED. */
  int32_t (*commit_table)(void* handle, const floe_plugin_ident* table,
                          const char* expected_location, const char* new_location,
                          floe_plugin_sink* error);
  int32_t (*rename_table)(void* handle, const floe_plugin_ident* from, const floe_plugin_ident* to,
                          floe_plugin_sink* error);
  /* Forgets the table (floe deletes its files first when purging). */
  int32_t (*drop_table)(void* handle, const floe_plugin_ident* table, floe_plugin_sink* error);
} floe_catalog_plugin;

/* The exported entry point: returns the plugin's function table (static, never freed), or NULL
 * when the plugin cannot serve a host speaking host_abi_version. */
typedef const floe_catalog_plugin* (*floe_catalog_plugin_entry_fn)(uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* FLOE_CATALOG_PLUGIN_H_ */
