// A package with escaped parts and a 63-character driver name with hyphens and dots: the
// project compiled, its Javadoc ran, its unit tests passed (the archetype plugin checked the exit
// code), and the values are where they belong, unaltered.
def project = context.projectDir
def driver = 'x-7.accelerator-lab-3.team-9.computer-vision.example-corp.co.uk'
def text = { String path -> new File(project, path).getText('UTF-8') }

assert new File(project, 'src/main/java/io/_3d_vision/new_/DeviceDriver.java').isFile()
assert text('src/main/java/io/_3d_vision/new_/DeviceDriver.java').startsWith('package io._3d_vision.new_;')
assert text('src/main/java/io/_3d_vision/new_/DeviceDriver.java')
    .contains("public static final String DEFAULT_NAME = \"${driver}\";")
assert text('deployments/helm/x2-vision-driver/values.yaml').contains("driverName: \"${driver}\"")
assert new File(project, 'target/x2-vision-driver.jar').isFile()
assert new File(project, 'target/reports/apidocs/index.html').isFile()
def tests = new File(project, 'target/surefire-reports').listFiles()
    .findAll { it.name.startsWith('TEST-') }.size()
assert tests >= 5 : "only ${tests} test classes ran"
return true
