#define BOOST_TEST_MODULE pos
#include <boost/test/unit_test.hpp>
