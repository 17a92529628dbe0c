// With sdk-bom alone the Netty versions mix: the reason sdk-dependencies exists. If this ever
// stops being true, the README's advice to import sdk-dependencies can be softened.
def versions = evaluate(new File(basedir, '../netty-versions.groovy').text + '\nnettyVersions(basedir)')
assert versions.size() > 1 : "expected mixed Netty versions without sdk-dependencies, got ${versions}"
