#define BOOST_TEST_MODULE terminal_serve
#include <boost/test/unit_test.hpp>
