# Run by CTest as a script (see CMakeLists.txt): installs into PREFIX and checks what a user of
# that installation gets.
file(REMOVE_RECURSE "${PREFIX}")

function(run)
  cmake_parse_arguments(ARG "" "OUTPUT" "COMMAND" ${ARGN})
  # Settings and autosave of the GUI stay inside the prefix, out of the user's files.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen "XDG_CONFIG_HOME=${PREFIX}/home/config"
                          "XDG_DATA_HOME=${PREFIX}/home/data" "XDG_CACHE_HOME=${PREFIX}/home/cache" ${ARG_COMMAND}
                  WORKING_DIRECTORY "${PREFIX}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${ARG_COMMAND} failed (${status}):\n${out}\n${err}")
  endif()
  if(ARG_OUTPUT)
    set(${ARG_OUTPUT} "${out}" PARENT_SCOPE)
  endif()
endfunction()

file(MAKE_DIRECTORY "${PREFIX}")
run(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}")

set(examples "${PREFIX}/${EXAMPLES}")
foreach(file "${BINDIR}/sysid" "${HELPERDIR}/sysid-symbolic" "${EXAMPLES}/duffing.model" "${EXAMPLES}/sdof_cubic.sysid"
             "${EXAMPLES}/data/sdof_cubic_5pct.csv" "${EXAMPLES}/README.md")
  if(NOT EXISTS "${PREFIX}/${file}")
    message(FATAL_ERROR "the installation lacks ${file}")
  endif()
endforeach()

run(COMMAND "${PREFIX}/${BINDIR}/sysid" --version OUTPUT version)
if(NOT version STREQUAL "sysid ${VERSION}\n")
  message(FATAL_ERROR "sysid --version printed '${version}', expected 'sysid ${VERSION}'")
endif()
# check runs in the symbolic helper, and the fit's model, not yet in the empty cache, is compiled by it.
run(COMMAND "${PREFIX}/${BINDIR}/sysid" check "${examples}/duffing.model" OUTPUT check)
if(NOT check MATCHES "outputs \\(1\\): x")
  message(FATAL_ERROR "sysid check on the installed duffing.model printed:\n${check}")
endif()
# A project finds its data relative to itself, inside the installation.
run(COMMAND "${PREFIX}/${BINDIR}/sysid" fit "${examples}/sdof_cubic.sysid" --quiet -o "${PREFIX}/result.json")
file(READ "${PREFIX}/result.json" result)
if(NOT result MATCHES "\"converged\": true")
  message(FATAL_ERROR "the fit of the installed sdof_cubic.sysid did not converge:\n${result}")
endif()

if(GUI)
  foreach(file "${BINDIR}/sysid-gui" "${DATADIR}/applications/sysid.desktop")
    if(NOT EXISTS "${PREFIX}/${file}")
      message(FATAL_ERROR "the installation lacks ${file}")
    endif()
  endforeach()
  file(READ "${PREFIX}/${DATADIR}/applications/sysid.desktop" entry)
  if(NOT entry MATCHES "\nExec=sysid-gui")
    message(FATAL_ERROR "the desktop entry does not start sysid-gui:\n${entry}")
  endif()
  run(COMMAND "${PREFIX}/${BINDIR}/sysid-gui" --examples-folder OUTPUT folder)
  string(STRIP "${folder}" folder)
  file(REAL_PATH "${examples}" expected)
  if(NOT folder STREQUAL expected)
    message(FATAL_ERROR "the installed sysid-gui looks for its examples in '${folder}', not in '${expected}'")
  endif()
  # The window opens its default example from there and renders.
  run(COMMAND "${PREFIX}/${BINDIR}/sysid-gui" --screenshot "${PREFIX}/window.png")
  if(NOT EXISTS "${PREFIX}/window.png")
    message(FATAL_ERROR "the installed sysid-gui wrote no screenshot")
  endif()
endif()
message(STATUS "the installation in ${PREFIX} works")
