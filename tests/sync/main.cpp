#define BOOST_TEST_MODULE sync
#include <boost/test/unit_test.hpp>
