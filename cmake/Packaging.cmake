# The Debian package (`cpack -G DEB` in a build folder; scripts/package.sh builds one from a clean
# folder and runs lintian). CPack's own DEB generator, no debhelper: dpkg-shlibdeps finds the
# library dependencies, the binary ships stripped and its debug symbols go into atoms-edge-dbgsym.
# What goes where, and the maintainer scripts' contract: docs/packaging.md.
set(ATOMS_DEB_DIR ${PROJECT_SOURCE_DIR}/image/debian)
set(ATOMS_DOC_DIR share/doc/atoms-edge)

# Compressed copies lintian wants (gzip -n: no name or time stamp, so the package is reproducible).
set(atoms_gz_files "")
foreach(pair "changelog:changelog.Debian.gz" "atoms-edge.1:atoms-edge.1.gz")
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 source)
  list(GET pair 1 target)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/deb/${target}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/deb
    COMMAND gzip -9nc ${ATOMS_DEB_DIR}/${source} > ${CMAKE_BINARY_DIR}/deb/${target}
    DEPENDS ${ATOMS_DEB_DIR}/${source} VERBATIM)
  list(APPEND atoms_gz_files ${CMAKE_BINARY_DIR}/deb/${target})
endforeach()
add_custom_target(atoms_deb_files ALL DEPENDS ${atoms_gz_files})

set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
install(TARGETS atoms-edge RUNTIME DESTINATION bin)
install(FILES ${CMAKE_BINARY_DIR}/deb/atoms-edge.1.gz DESTINATION share/man/man1)
# Under /etc: dpkg treats every file there as a conffile (an operator's edits survive upgrades).
install(FILES etc/atoms-edge.conf DESTINATION /etc/atoms-edge)
install(DIRECTORY etc/labor/ DESTINATION /etc/atoms-edge/labor FILES_MATCHING PATTERN "*.json")
# Debian 12 looks for units of packages in /lib/systemd/system (not yet /usr/lib).
install(FILES image/atoms-edge.service DESTINATION /lib/systemd/system)
install(FILES ${ATOMS_DEB_DIR}/copyright ${CMAKE_BINARY_DIR}/deb/changelog.Debian.gz
  DESTINATION ${ATOMS_DOC_DIR})
install(FILES README.md DESTINATION ${ATOMS_DOC_DIR})
install(FILES ${ATOMS_DEB_DIR}/lintian-overrides DESTINATION share/lintian/overrides
  RENAME atoms-edge)
install(DIRECTORY docs/ DESTINATION ${ATOMS_DOC_DIR}/docs FILES_MATCHING PATTERN "*.md"
  PATTERN panel EXCLUDE)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME atoms-edge)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_CONTACT "atoms-edge maintainers <maintainers@atoms-edge.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "staffing appliance for one site")
set(CPACK_PACKAGE_DESCRIPTION
  "atoms-edge runs the staffing of a restaurant, shop or warehouse on a small\n"
  "box on site: scheduling, call-outs by SMS, labor-rule checks and safety\n"
  "alerts, on an encrypted local store, with a signed, verifiable audit log\n"
  "that is synced to the cloud. The package installs the binary, its systemd\n"
  "unit (enabled, not started) and the default configuration; run\n"
  "atoms-edge init before starting the service.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# adduser for postinst; the rest comes from dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
# Every file shipped under /etc is a conffile: dpkg keeps an operator's edits across upgrades and
# removes them on purge.
# (A glob of data files, not of sources: a new table is a conffile without anyone listing it.)
file(GLOB atoms_labor_tables RELATIVE ${PROJECT_SOURCE_DIR}/etc/labor ${PROJECT_SOURCE_DIR}/etc/labor/*.json)
list(SORT atoms_labor_tables)
set(atoms_conffiles "/etc/atoms-edge/atoms-edge.conf\n")
foreach(table IN LISTS atoms_labor_tables)
  string(APPEND atoms_conffiles "/etc/atoms-edge/labor/${table}\n")
endforeach()
file(WRITE ${CMAKE_BINARY_DIR}/deb/conffiles "${atoms_conffiles}")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/deb/conffiles
  ${ATOMS_DEB_DIR}/postinst ${ATOMS_DEB_DIR}/prerm ${ATOMS_DEB_DIR}/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(CPACK_DEBIAN_DEBUGINFO_PACKAGE ON)
include(CPack)
