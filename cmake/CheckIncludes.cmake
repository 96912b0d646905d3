# Checks the include directions between the top-level folders of a source tree (DESIGN.md section 1):
# each folder's README.md has one line "May include: a/, b/" naming the other folders of ours its
# files may include ("May include: nothing of ours" for none). A file including a folder that its
# README does not allow is a violation; the script names every one and fails. An optional line
# "Must not include: Poco/, date/" names libraries the folder's files may not include at all (the
# domain has no Poco): `#include <Poco/...>` there is a violation too.
#
# Usage: cmake -D ROOT=<source tree> -P CheckIncludes.cmake
# Folders without a README line are not checked (tests/, etc/, docs/...) but may still be named as
# included folders; "ours" is every top-level folder that has a README with the line.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "CheckIncludes: pass -D ROOT=<source tree>")
endif()

file(GLOB readmes RELATIVE ${ROOT} ${ROOT}/*/README.md)
set(folders "")
foreach(readme IN LISTS readmes)
  get_filename_component(folder ${readme} DIRECTORY)
  file(STRINGS ${ROOT}/${readme} rule REGEX "^May include: ")
  list(LENGTH rule n)
  if(n EQUAL 0)
    continue()
  elseif(NOT n EQUAL 1)
    message(FATAL_ERROR "${readme}: more than one 'May include:' line")
  endif()
  string(REGEX MATCHALL "[a-z_]+/" allowed "${rule}")
  string(REPLACE "/" "" allowed "${allowed}")
  list(APPEND folders ${folder})
  set(allowed_${folder} ${allowed})
  file(STRINGS ${ROOT}/${readme} banned REGEX "^Must not include: ")
  string(REGEX MATCHALL "[A-Za-z0-9_]+/" banned "${banned}")
  string(REPLACE "/" "" banned "${banned}")
  set(banned_${folder} ${banned})
endforeach()
if(NOT folders)
  message(FATAL_ERROR "CheckIncludes: no README.md under ${ROOT} has a 'May include:' line")
endif()

set(violations 0)
foreach(folder IN LISTS folders)
  file(GLOB_RECURSE sources RELATIVE ${ROOT} ${ROOT}/${folder}/*.h ${ROOT}/${folder}/*.cpp)
  foreach(source IN LISTS sources)
    # Each file is read once; its include lines are then judged against both rules.
    file(STRINGS ${ROOT}/${source} includes REGEX "^#include [<\"][A-Za-z0-9_]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include [<\"]([A-Za-z0-9_]+)/.*" "\\1" target "${line}")
      if(target IN_LIST banned_${folder})
        message(SEND_ERROR "${source}: ${line}: ${folder}/ may not include ${target}/ "
                           "(${folder}/README.md, Must not include: ${banned_${folder}})")
        math(EXPR violations "${violations} + 1")
        continue()
      endif()
      if(NOT line MATCHES "^#include \"" OR target STREQUAL folder OR NOT target IN_LIST folders)
        continue()
      endif()
      if(NOT target IN_LIST allowed_${folder})
        set(rule "${allowed_${folder}}")
        if(NOT rule)
          set(rule "nothing of ours")
        endif()
        message(SEND_ERROR "${source}: ${line}: ${folder}/ may not include ${target}/ "
                           "(${folder}/README.md, May include: ${rule})")
        math(EXPR violations "${violations} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(violations GREATER 0)
  message(FATAL_ERROR "${violations} include(s) against the folders' rules")
endif()
list(JOIN folders ", " checked)
message(STATUS "include directions hold in ${checked}")
