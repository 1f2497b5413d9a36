# A family's own parts of the shared records: its place in the `family` enum, its options in a
# table_config, its counters in table_stats, and what its views read of a sample or a traced step
# beyond the common parts. Each family declares them in its core/<family>/family.cmake:
#
#   hs_family_parts(slab
#     RANK 1                                    # hs::family::slab, second in every list
#     HEADER core/slab/slab_inspection.hpp      # declares the types below and same_reading()
#     OPTIONS core/slab/slab_options.hpp slab_options   # becomes table_config::slab
#     COUNTERS slab_counters                    # becomes table_stats::slab (in the OPTIONS header)
#     REQUEST slab_inspect_request              # becomes inspect_request::slab
#     RESULT slab_inspect_result                # becomes inspect_result::slab
#     STEP "std::optional<slab_chain>" list_before)  # becomes stepped_op::list_before
#
# hs_write_family_parts() then writes core/table/family_parts.hpp and family_options.hpp into the
# build tree: the enum and structs holding every family's parts, which table_config, table_stats,
# inspect_request, inspect_result and stepped_op derive from. So core/table names no family, and
# the members stay plain typed members (no casts, no lookups).
# A family with REQUEST provides `bool same_reading(const REQUEST&, const REQUEST&)`: whether two
# samples read the table the same way as far as its part goes. A family has at most one part of
# each kind, and its names must differ from the records' common members (a family's `strip` would
# hide inspect_request::strip).

function(hs_family_parts name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "RANK;HEADER;REQUEST;RESULT;COUNTERS" "STEP;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS OR NOT DEFINED arg_RANK OR NOT arg_OPTIONS)
    message(FATAL_ERROR "hs_family_parts(${name}): RANK, OPTIONS HEADER TYPE and any of HEADER, "
                        "COUNTERS, REQUEST, RESULT, STEP TYPE MEMBER; got '${arg_UNPARSED_ARGUMENTS}'")
  endif()
  list(LENGTH arg_OPTIONS n)
  if(NOT n EQUAL 2)
    message(FATAL_ERROR "hs_family_parts(${name}): OPTIONS takes a header and a type")
  endif()
  list(GET arg_OPTIONS 0 options_header)
  list(GET arg_OPTIONS 1 options_type)
  # Ranks order the enum: zero-padded so that a text sort is a number sort.
  string(LENGTH "${arg_RANK}" digits)
  if(NOT arg_RANK MATCHES "^[0-9]+$" OR digits GREATER 3)
    message(FATAL_ERROR "hs_family_parts(${name}): RANK is a number below 1000")
  endif()
  math(EXPR padded "1000 + ${arg_RANK}")
  set_property(GLOBAL APPEND PROPERTY hs_family_ranked "${padded}:${name}")
  set_property(GLOBAL APPEND PROPERTY hs_family_option_headers "${options_header}")
  set_property(GLOBAL APPEND PROPERTY hs_family_options "${options_type}:${name}")
  if(arg_COUNTERS)
    set_property(GLOBAL APPEND PROPERTY hs_family_counters "${arg_COUNTERS}:${name}")
  endif()
  if(arg_HEADER)
    set_property(GLOBAL APPEND PROPERTY hs_family_part_headers "${arg_HEADER}")
  elseif(arg_REQUEST OR arg_RESULT OR arg_STEP)
    message(FATAL_ERROR "hs_family_parts(${name}): REQUEST, RESULT and STEP need the HEADER that declares them")
  endif()
  if(arg_REQUEST)
    set_property(GLOBAL APPEND PROPERTY hs_family_part_requests "${arg_REQUEST}:${name}")
  endif()
  if(arg_RESULT)
    set_property(GLOBAL APPEND PROPERTY hs_family_part_results "${arg_RESULT}:${name}")
  endif()
  if(arg_STEP)
    list(LENGTH arg_STEP n)
    if(NOT n EQUAL 2)
      message(FATAL_ERROR "hs_family_parts(${name}): STEP takes a type and a member name")
    endif()
    list(GET arg_STEP 0 type)
    list(GET arg_STEP 1 member)
    set_property(GLOBAL APPEND PROPERTY hs_family_part_steps "${type}:${member}")
  endif()
endfunction()

# Members "TYPE:NAME" as C++ member lines.
# The member names of a family-part property's "type:member" entries.
function(hs_family_part_names out property)
  get_property(entries GLOBAL PROPERTY ${property})
  set(names "")
  foreach(entry IN LISTS entries)
    string(FIND "${entry}" ":" colon REVERSE)
    math(EXPR after "${colon} + 1")
    string(SUBSTRING "${entry}" ${after} -1 member)
    list(APPEND names ${member})
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

function(hs_family_part_members out property)
  get_property(entries GLOBAL PROPERTY ${property})
  set(text "")
  foreach(entry IN LISTS entries)
    string(FIND "${entry}" ":" colon REVERSE)
    string(SUBSTRING "${entry}" 0 ${colon} type)
    math(EXPR after "${colon} + 1")
    string(SUBSTRING "${entry}" ${after} -1 member)
    string(APPEND text "  ${type} ${member};\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# core/table/family_options.hpp: the family enum, and each family's options and counters.
function(hs_write_family_options path)
  get_property(ranked GLOBAL PROPERTY hs_family_ranked)
  list(SORT ranked)
  set(names "")
  set(sep "")
  foreach(entry IN LISTS ranked)
    string(SUBSTRING "${entry}" 5 -1 name)
    string(APPEND names "${sep}${name}")
    set(sep ", ")
  endforeach()
  get_property(headers GLOBAL PROPERTY hs_family_option_headers)
  set(includes "")
  foreach(header IN LISTS headers)
    string(APPEND includes "#include \"${header}\"\n")
  endforeach()
  hs_family_part_members(options hs_family_options)
  hs_family_part_members(counters hs_family_counters)
  # A table over several devices reports its shards' counters as one: each family's counters
  # offer add_shard (a sum, or a maximum where the counter is one).
  hs_family_part_names(counter_members hs_family_counters)
  set(add_counters "")
  foreach(member IN LISTS counter_members)
    string(APPEND add_counters "  into.${member}.add_shard(shard.${member});\n")
  endforeach()
  set(text "// Generated by cmake/family_parts.cmake from each family's hs_family_parts() in
// core/<family>/family.cmake. Do not edit: change the family's declaration.
#pragma once
#include <cstdint>

${includes}
namespace hs {

/// @brief The table families, by rank; each describes itself in the registry.
enum class family : std::uint8_t { ${names} };

/// @brief Each family's options in a table_config (core/table/table.hpp). A family reads only its
/// own, so one config carries another family's settings unharmed.
struct family_table_options {
${options}};

/// @brief Each family's counters in table_stats (core/table/table.hpp).
struct family_table_counters {
${counters}};

/// @brief Adds one shard's counters of every family into a sharded table's (core/shard).
inline void add_shard_counters(family_table_counters& into, const family_table_counters& shard) {
${add_counters}}

}  // namespace hs
")
  file(CONFIGURE OUTPUT "${path}" CONTENT "${text}" @ONLY)
endfunction()

function(hs_write_family_parts path)
  get_property(headers GLOBAL PROPERTY hs_family_part_headers)
  set(includes "")
  foreach(header IN LISTS headers)
    string(APPEND includes "#include \"${header}\"\n")
  endforeach()
  hs_family_part_members(requests hs_family_part_requests)
  hs_family_part_members(results hs_family_part_results)
  hs_family_part_members(steps hs_family_part_steps)
  hs_family_part_names(request_members hs_family_part_requests)
  set(same "true")  # no family has a request of its own
  set(sep "")
  foreach(member IN LISTS request_members)
    if(sep STREQUAL "")
      set(same "")
    endif()
    string(APPEND same "${sep}same_reading(a.${member}, b.${member})")
    set(sep " &&\n         ")
  endforeach()
  set(text "// Generated by cmake/family_parts.cmake from each family's hs_family_parts() in
// core/<family>/family.cmake. Do not edit: change the family's declaration.
#pragma once
#include <optional>

${includes}
namespace hs {

/// @brief Each family's own part of a sample's request (core/table/inspection.hpp).
struct family_inspect_requests {
${requests}};

/// @brief Each family's own part of a sample (core/table/inspection.hpp).
struct family_inspect_results {
${results}};

/// @brief What a traced step records of an operation for each family (core/table/step_trace.hpp).
struct family_step_records {
${steps}};

/// @brief Whether two requests read every family's part the same way.
inline bool same_family_reading([[maybe_unused]] const family_inspect_requests& a,
                                [[maybe_unused]] const family_inspect_requests& b) {
  return ${same};
}

}  // namespace hs
")
  file(CONFIGURE OUTPUT "${path}" CONTENT "${text}" @ONLY)
endfunction()
