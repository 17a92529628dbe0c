// With both BOMs every Netty artifact has the version dra4j is built and tested with.
def versions = evaluate(new File(basedir, '../netty-versions.groovy').text + '\nnettyVersions(basedir)')
assert versions == [nettyVersion] as Set : "Netty versions ${versions}, expected only ${nettyVersion}"
def log = new File(basedir, 'build.log').text
assert log.contains('RequireSameVersions passed') : 'the gRPC same-version rule did not run'
