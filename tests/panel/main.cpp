#define BOOST_TEST_MODULE panel
#include <boost/test/unit_test.hpp>
