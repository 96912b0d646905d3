#define BOOST_TEST_MODULE intraday
#include <boost/test/unit_test.hpp>
