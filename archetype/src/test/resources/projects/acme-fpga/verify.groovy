// The generated project built and passed its own verify (the archetype plugin checked the exit
// code); here: what it built and ran, and that the values reached the files they belong in.
def project = context.projectDir
def text = { String path -> new File(project, path).getText('UTF-8') }

assert new File(project, 'target/acme-fpga-driver.jar').isFile() : 'the image jar was not built'
assert new File(project, 'target/reports/apidocs/index.html').isFile() : 'Javadoc did not run'
assert new File(project, 'src/main/java/com/acme/fpga/DeviceDriver.java').isFile()
assert text('src/main/java/com/acme/fpga/DeviceDriver.java')
    .contains('public static final String DEFAULT_NAME = "fpga.acme.com";')
assert text('src/main/java/com/acme/fpga/config/DriverConfigs.java')
    .contains('"fpga.acme.com/v1alpha1"')
assert text('pom.xml').contains('<version>2.3.0-SNAPSHOT</version>')
assert text('deployments/helm/acme-fpga-driver/Chart.yaml').contains('name: acme-fpga-driver')
assert text('deployments/helm/acme-fpga-driver/Chart.yaml').contains('appVersion: "2.3.0-SNAPSHOT"')
assert text('deployments/helm/acme-fpga-driver/values.yaml').contains('driverName: "fpga.acme.com"')
assert text('Dockerfile').contains('COPY target/acme-fpga-driver.jar /opt/driver/app/driver.jar')
assert text('Dockerfile').contains('--print-module-deps /opt/driver/app/driver.jar')
assert text('Dockerfile').contains('org.opencontainers.image.title="acme-fpga-driver"')
assert text('Dockerfile').contains('ARG JDK_IMAGE=eclipse-temurin:25.0.3_9-jdk-noble') : 'the build base is pinned'
assert text('.dockerignore').contains('!target/acme-fpga-driver.jar')

// The pom names the starter (and the test kit for the tests), no other dra4j
// artifact, and excludes nothing; the image jar has fabric8's JDK HTTP client and no Vert.x.
def pom = text('pom.xml')
def dependencies = pom.substring(pom.indexOf('</dependencyManagement>'), pom.indexOf('<build>'))
assert (dependencies =~ /<artifactId>(dra4j-[a-z-]+)<\/artifactId>/).collect { it[1] } ==
    ['dra4j-starter', 'dra4j-testing']
assert !pom.contains('<exclusion') && !pom.contains('<artifactSet>') : 'the pom excludes something'
def entries = new java.util.zip.ZipFile(new File(project, 'target/acme-fpga-driver.jar'))
    .withCloseable { jar -> jar.entries().collect { it.name } }
assert entries.contains('io/fabric8/kubernetes/client/jdkhttp/JdkHttpClientFactory.class')
assert !entries.any { it.startsWith('io/vertx/') || it.startsWith('io/fabric8/kubernetes/client/vertx') } :
    'Vert.x is in the image jar'

// Every test class ran, none failed; the chart tests ran where DRA4J_HELM is set.
def suites = ['target/surefire-reports', 'target/failsafe-reports'].collectMany { dir ->
  new File(project, dir).listFiles().findAll { it.name ==~ /TEST-.*\.xml/ }.collect { file ->
    def head = (file.getText('UTF-8') =~ /<testsuite\b[^>]*>/)[0]
    def attributes = [:]
    (head =~ /(\w+)="([^"]*)"/).each { all, key, value -> attributes[key] = value }
    attributes
  }
}
def names = suites.collect { it.name }
['com.acme.fpga.DeviceDriverTest', 'com.acme.fpga.config.DriverConfigTest',
 'com.acme.fpga.command.EnvironmentDefaultsTest', 'com.acme.fpga.demo.DemoTest',
 'com.acme.fpga.chart.ChartTest', 'com.acme.fpga.command.KubeletPluginProcessIT'].each {
  assert names.contains(it) : "${it} did not run: ${names}"
}
def sum = { String attribute -> suites.sum { it[attribute] as int } }
assert sum('failures') == 0 && sum('errors') == 0
def chart = suites.find { it.name == 'com.acme.fpga.chart.ChartTest' }
def helm = System.getenv('DRA4J_HELM')
if (helm) {
  assert (chart.skipped as int) == 0 : "DRA4J_HELM=${helm} but the chart tests were skipped"
}
println "acme-fpga-driver: ${sum('tests')} tests, ${sum('skipped')} skipped" +
    (helm ? '' : ' (the chart tests: DRA4J_HELM is not set)')
return true
