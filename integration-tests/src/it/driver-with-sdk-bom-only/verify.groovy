// With dra4j-bom alone the Netty versions mix: the reason dra4j-dependencies exists. If this ever
// stops being true, the README's advice to import dra4j-dependencies can be softened.
def versions = evaluate(new File(basedir, '../netty-versions.groovy').text + '\nnettyVersions(basedir)')
assert versions.size() > 1 : "expected mixed Netty versions without dra4j-dependencies, got ${versions}"
